package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * opencode fetches a prompt with placeholders ({@code $1}, {@code $2}, …) as its arguments and puts
 * the typed words in their place afterwards: to opencode, promptd renders the placeholders as they
 * are, unchecked, so prompts with choices, types and patterns work there too; every other client
 * still gets -32602 for such values.
 */
class PlaceholderClientsTest {
  @TempDir
  Path root;

  @Test
  void opencodesPlaceholdersAreRenderedAsTheyAreAndOnlyForIt() {
    write(root, "translate.prompt.md", """
        ---
        description: Translates
        arguments:
          - name: text
            required: true
          - name: language
            required: true
            enum: [French, German]
          - name: count
            type: integer
          - name: formal
            type: boolean
        ---
        Into {{language}} ({{count}} variants{{#formal}}, formal{{/formal}}): {{text}}
        """);
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      String args = "{\"text\":\"$1\",\"language\":\"$2\",\"count\":\"$3\",\"formal\":\"$4\"}";
      assertThat(get(server, "opencode", args)).contains("Into $2 ($3 variants, formal): $1");
      assertThat(get(server, "other", args))
          .contains("-32602", "argument 'language' must be one of");
      // Real values from opencode are checked as from anyone.
      assertThat(get(server, "opencode", "{\"text\":\"hi\",\"language\":\"Klingon\"}"))
          .contains("-32602");
      assertThat(get(server, "opencode", "{\"text\":\"hi\",\"language\":\"german\"}"))
          .contains("Into German ( variants): hi");
    }
  }

  private static String get(McpServer server, String client, String arguments) {
    ServerSession session = server.openSession(Outbound.discard());
    session.handle(
        request("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{}},\"clientInfo\":{\"name\":\""
            + client
            + "\",\"version\":\"1\"}}}"),
        Outbound.discard());
    return MessageCodec.encode(session.handle(
        request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\","
            + "\"params\":{\"name\":\"translate\",\"arguments\":" + arguments + "}}"),
        Outbound.discard()));
  }

  private static Request request(String text) {
    return (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
  }
}
