package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.FormHandler;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * promptd's Java client with a {@link FormHandler} against a 2026-07-28 server over HTTP: the
 * request declares form elicitation, the server's form reaches the handler, the answer is sent back
 * with the request state, and the prompt renders; a declined form is the server's -32602; a client
 * without a handler is never asked.
 */
class ClientFormsTest {
  @Test
  void theHandlerAnswersTheServersFormAndThePromptRenders() throws Exception {
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of(
                  "greet",
                  "Greets",
                  List.of(new PromptArgument("who", "Who", "Whom to greet", true))),
              args -> List.of(PromptMessage.user("Hello, " + args.get("who")))));
      try (McpClient client = McpClient.connectHttp(http.uri(), ClientOptions.defaults())) {
        List<String> messages = new ArrayList<>();
        List<String> schemas = new ArrayList<>();
        FormHandler accept = (message, schema) -> {
          messages.add(message);
          schemas.add(JsonCodec.write(schema));
          return FormHandler.Answer.accept(
              JsonObject.builder().put("who", "Ada").build());
        };
        var result = client.getPrompt("greet", Map.of(), accept);
        assertThat(((TextContent) result.messages().getFirst().content()).text())
            .isEqualTo("Hello, Ada");
        assertThat(messages)
            .containsExactly("The prompt 'greet' needs more from you: Who is required.");
        assertThat(schemas)
            .containsExactly("{\"type\":\"object\",\"properties\":{\"who\":{\"type\":\"string\","
                + "\"title\":\"Who\",\"description\":\"Whom to greet\"}},\"required\":[\"who\"]}");

        assertThatThrownBy(
                () -> client.getPrompt("greet", Map.of(), (m, s) -> FormHandler.Answer.decline()))
            .isInstanceOfSatisfying(McpException.class, e -> {
              assertThat(e.code()).isEqualTo(-32602);
              assertThat(e.getMessage()).contains("(the user declined the form asking for them)");
            });
        assertThatThrownBy(() -> client.getPrompt("greet", Map.of()))
            .isInstanceOfSatisfying(
                McpException.class,
                e -> assertThat(e.getMessage())
                    .isEqualTo("prompt 'greet': missing required argument 'who'"));
      }
    }
  }
}
