package io.promptd.mcp.server.internal.feature;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What promptd does about known clients' limits, recognised by their clientInfo.name
 * (docs/clients.md).
 */
@Timeout(30)
class ClientQuirksTest {
  @Test
  void clientsThatReadOnlyTheFirstPageGetTheWholeListInOne() {
    try (McpServer server = McpServer.builder().pageSize(2).build()) {
      for (String name : List.of("a", "b", "c", "d", "e")) {
        server
            .prompts()
            .put(PromptDefinition.of(
                Prompt.of(name, "d", List.of()), args -> List.of(PromptMessage.user(name))));
      }
      assertThat(list(server, "gemini-cli-mcp-client", "2025-06-18"))
          .contains("\"name\":\"e\"")
          .doesNotContain("nextCursor");
      assertThat(list(server, "qwen-cli-mcp-client-promptd", "2025-11-25"))
          .contains("\"name\":\"e\"")
          .doesNotContain("nextCursor");
      assertThat(list(server, "claude-code", "2025-11-25"))
          .contains("\"name\":\"b\"", "nextCursor")
          .doesNotContain("\"name\":\"c\"");
    }
    assertThat(
            ClientQuirks.pageSize(new Implementation("gemini-cli-mcp-client", null, "1"), 20_000))
        .as("a larger page size stays")
        .isEqualTo(20_000);
    assertThat(ClientQuirks.pageSize(null, 500)).isEqualTo(500);
  }

  @Test
  void aModernListingThatOneWayOfReadingPagesChangesIsPrivate() {
    try (McpServer server = McpServer.builder().pageSize(2).build()) {
      StatelessEndpoint stateless = server.openStateless();
      server.prompts().put(prompt("a"));
      // One page for everyone: the same listing whoever asks.
      assertThat(modernList(stateless, "gemini-cli-mcp-client").string("cacheScope"))
          .hasValue("public");
      assertThat(modernList(stateless, "claude-code").string("cacheScope")).hasValue("public");
      for (String name : List.of("b", "c")) {
        server.prompts().put(prompt(name));
      }
      // Past a page, a client that reads only the first gets all in one, others a page: a shared
      // cache must not hand one's listing to the other.
      JsonObject onePage = modernList(stateless, "gemini-cli-mcp-client");
      assertThat(onePage.get("nextCursor")).isNull();
      assertThat(onePage.string("cacheScope")).hasValue("private");
      JsonObject paged = modernList(stateless, "claude-code");
      assertThat(paged.get("nextCursor")).isNotNull();
      assertThat(paged.string("cacheScope")).hasValue("private");
    }
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, "d", List.of()), args -> List.of(PromptMessage.user(name)));
  }

  private static JsonObject modernList(StatelessEndpoint stateless, String client) {
    Request r = Wire.request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\","
        + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{},"
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + client
        + "\",\"version\":\"1\"}}}}");
    Response response = stateless
        .receive(
            new Incoming.Single(r),
            new RequestHeaders("2026-07-28", "prompts/list", null),
            Caller.UNRESTRICTED)
        .run(new Recorder())
        .response();
    JsonObject message =
        (JsonObject) JsonCodec.parse(MessageCodec.encode(Objects.requireNonNull(response)));
    return message.object("result").orElseThrow(() -> new AssertionError(message));
  }

  @Test
  void placeholdersAreRecognisedOnlyForClientsThatFetchWithThem() {
    Map<String, String> args =
        Map.of("a", "$1", "b", "$ARGUMENTS", "c", "$100", "d", "text $1", "e", "$0");
    assertThat(ClientQuirks.placeholders(new Implementation("opencode", null, "1.18.33"), args))
        .isEqualTo(Set.of("a", "b"));
    assertThat(ClientQuirks.placeholders(new Implementation("claude-code", null, "2"), args))
        .isEmpty();
    assertThat(ClientQuirks.placeholders(null, args)).isEmpty();
    assertThat(ClientQuirks.cutsTextAtSpaces(new Implementation("Claude-Code", null, "2")))
        .isTrue();
    assertThat(ClientQuirks.cutsTextAtSpaces(new Implementation("opencode", null, "1")))
        .isFalse();
  }

  private static String list(McpServer server, String client, String version) {
    ServerSession session = server.openSession(new Recorder());
    try {
      session.handle(
          Wire.request("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"" + version
              + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"" + client
              + "\",\"version\":\"1\"}}}"),
          new Recorder());
      return MessageCodec.encode(
          session.handle(Wire.legacy(1, "prompts/list", ""), new Recorder()));
    } finally {
      session.close();
    }
  }
}
