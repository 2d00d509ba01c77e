package io.promptd.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import io.promptd.mcp.stdio.StdioTransport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;

/**
 * The message codec and the dispatcher behind a real stdio transport: any bytes as a client's
 * transcript (lines of JSON-RPC, both eras, batches, garbage) end with the transport returning at
 * end of input, and everything written back is one JSON-RPC message per line, with no Java
 * internals in it.
 */
class TranscriptFuzzTest {
  private static final McpServer SERVER = server();

  private static McpServer server() {
    McpServer s = McpServer.builder().pageSize(2).promptsAsTools(true).build();
    PromptRenderer renderer = new PromptRenderer() {
      @Override
      public GetPromptResult render(Map<String, String> arguments) {
        return GetPromptResult.of(
            "Greets", List.of(PromptMessage.user("Hello, " + arguments.get("who"))));
      }

      @Override
      public boolean mayBlock() {
        return false;
      }
    };
    s.prompts()
        .put(new PromptDefinition(
            Prompt.of(
                "greet",
                "Greets someone",
                List.of(
                    new PromptArgument("who", "Who", "Whom to greet", true),
                    new PromptArgument("tone", null, null, false))),
            renderer,
            (argument, value, context) -> Completion.of(List.of("Ada", "Alan", "Grace"))));
    s.prompts()
        .put(PromptDefinition.of(
            Prompt.of("plain", null, List.of()), a -> List.of(PromptMessage.user("p"))));
    s.prompts()
        .put(PromptDefinition.of(
            Prompt.of("third", "t", List.of()), a -> List.of(PromptMessage.user("t"))));
    return s;
  }

  @FuzzTest(maxDuration = "10m")
  void stdioTranscript(byte[] input) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StdioTransport.create(SERVER, new ByteArrayInputStream(input), out, 64 * 1024)
        .run();
    String written = out.toString(UTF_8);
    Safe.message(written);
    for (String line : written.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      Object message = JsonCodec.parse(line);
      if (message instanceof JsonArray batch) {
        assertThat(batch.elements())
            .allMatch(e -> e instanceof JsonObject o && o.string("jsonrpc").isPresent());
      } else {
        assertThat(message)
            .isInstanceOfSatisfying(
                JsonObject.class, o -> assertThat(o.string("jsonrpc")).hasValue("2.0"));
      }
    }
  }
}
