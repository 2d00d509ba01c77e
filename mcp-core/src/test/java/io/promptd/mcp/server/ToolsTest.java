package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.feature.ToolsFeature;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Prompts as tools ({@code promptsAsTools}): {@code list_prompts} and {@code get_prompt} in every
 * era, results valid against the era's schema, the input schema derived from argument declarations,
 * a prompt's refusal as a tool error, {@code tools/list_changed} after a catalog change, and no
 * tools at all unless enabled.
 */
class ToolsTest {
  private final PromptCatalog catalog = SampleCatalog.catalog();
  private final McpServer server =
      McpServer.builder().prompts(catalog).promptsAsTools(true).build();

  /** A legacy request whose params are the JSON object {@code params}. */
  private static Request request(long id, String method, String params) {
    return Wire.legacy(id, method, params.substring(1, params.length() - 1));
  }

  /**
   * The result of {@code r}, checked against {@code version}'s schema as the answer to
   * {@code method}.
   */
  private static JsonObject valid(String version, String method, Response r) {
    assertThat(r).as("%s", r).isInstanceOf(ResultResponse.class);
    SchemaHarness.of(ProtocolVersion.of(version).orElseThrow())
        .assertConforms(MessageCodec.encode(r), method);
    return ((ResultResponse) r).result();
  }

  private static String text(JsonObject toolResult) {
    return toolResult.array("content").orElseThrow().elements().stream()
        .map(b -> ((JsonObject) b).string("text").orElse(""))
        .reduce("", (a, b) -> a + b);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void legacySessionsListAndCallTheTools(String version) throws Exception {
    BlockingQueue<Message> out = new LinkedBlockingQueue<>();
    ServerSession session = server.openSession(out::add);
    JsonObject init = valid(
        version,
        "initialize",
        session.handle(
            request(
                1,
                "initialize",
                "{\"protocolVersion\":\"" + version
                    + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"),
            out::add));
    assertThat(JsonCodec.write(init.object("capabilities").orElseThrow()))
        .contains("\"tools\":{\"listChanged\":true}");

    JsonObject tools =
        valid(version, "tools/list", session.handle(request(2, "tools/list", "{}"), out::add));
    JsonArray list = tools.array("tools").orElseThrow();
    assertThat(list.elements())
        .extracting(t -> ((JsonObject) t).string("name").orElseThrow())
        .containsExactly("list_prompts", "get_prompt");
    String schema = JsonCodec.write(((JsonObject) list.elements().get(1)).get("inputSchema"));
    assertThat(schema)
        .contains("\"enum\":[\"broken\",\"code_review\",\"media_tour\"")
        .contains(
            "{\"type\":\"object\",\"properties\":{\"language\":{\"type\":\"string\",\"title\":"
                + "\"Language\",\"description\":\"The programming language\"}")
        .contains("\"required\":[\"language\",\"code\"],\"title\":\"code_review\"")
        .doesNotContain("allOf");

    JsonObject listed = valid(
        version,
        "tools/call",
        session.handle(request(3, "tools/call", "{\"name\":\"list_prompts\"}"), out::add));
    assertThat(text(listed))
        .contains("\"name\":\"code_review\"")
        .contains("\"name\":\"media_tour\"");
    assertThat(listed.has("structuredContent")).isEqualTo(version.compareTo("2025-06-18") >= 0);

    JsonObject got = valid(
        version,
        "tools/call",
        session.handle(
            request(
                4,
                "tools/call",
                "{\"name\":\"get_prompt\","
                    + "\"arguments\":{\"name\":\"code_review\",\"arguments\":{\"language\":\"go\",\"code\":\"x := 1\"}}}"),
            out::add));
    assertThat(got.has("isError")).isFalse();
    assertThat(text(got)).contains("Review this go code").contains("x := 1");

    valid(
        version,
        "tools/call",
        session.handle(
            request(
                5,
                "tools/call",
                "{\"name\":\"get_prompt\"," + "\"arguments\":{\"name\":\"media_tour\"}}"),
            out::add)); // images, audio, resources, links: per era

    JsonObject missing = valid(
        version,
        "tools/call",
        session.handle(
            request(
                6,
                "tools/call",
                "{\"name\":\"get_prompt\",\"arguments\":{\"name\":\"code_review\",\"arguments\":{\"language\":\"go\"}}}"),
            out::add));
    assertThat(missing.get("isError")).isEqualTo(JsonBoolean.TRUE);
    assertThat(text(missing)).isEqualTo("prompt 'code_review': missing required argument 'code'");
    JsonObject unknown = valid(
        version,
        "tools/call",
        session.handle(
            request(7, "tools/call", "{\"name\":\"get_prompt\",\"arguments\":{\"name\":\"nope\"}}"),
            out::add));
    assertThat(text(unknown)).contains("Unknown prompt");
    JsonObject broken = valid(
        version,
        "tools/call",
        session.handle(
            request(
                8, "tools/call", "{\"name\":\"get_prompt\",\"arguments\":{\"name\":\"broken\"}}"),
            out::add));
    assertThat(broken.get("isError")).isEqualTo(JsonBoolean.TRUE);
    assertThat(text(broken)).doesNotContain("Exception");

    Response noTool =
        session.handle(request(9, "tools/call", "{\"name\":\"delete_everything\"}"), out::add);
    assertThat(((ErrorResponse) noTool).code()).isEqualTo(-32602);

    out.clear();
    catalog.put(PromptDefinition.of(
        Prompt.of("added", "New", List.of()), args -> List.of(PromptMessage.user("n"))));
    Set<String> heard = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      Message m = out.poll(5, TimeUnit.SECONDS);
      assertThat(m).isInstanceOf(Notification.class);
      heard.add(((Notification) m).method());
      SchemaHarness.of(ProtocolVersion.of(version).orElseThrow())
          .assertConforms(MessageCodec.encode(m), null);
    }
    assertThat(heard)
        .containsExactlyInAnyOrder(
            "notifications/prompts/list_changed", "notifications/tools/list_changed");
    session.close();
  }

  @Test
  void modernRequestsAndListenStreams() throws Exception {
    ServerSession session = server.openSession(m -> {});
    JsonObject tools = valid(
        "2026-07-28", "tools/list", session.handle(Wire.modern(1, "tools/list", ""), m -> {}));
    assertThat(tools.string("cacheScope")).contains("public");
    assertThat(JsonCodec.write(tools))
        .contains(
            "{\"if\":{\"properties\":{\"name\":{\"const\":\"code_review\"}}},"
                + "\"then\":{\"properties\":{\"arguments\":{\"type\":\"object\",\"properties\":{\"language\":");
    JsonObject got = valid(
        "2026-07-28",
        "tools/call",
        session.handle(
            Wire.modern(
                2,
                "tools/call",
                "\"name\":\"get_prompt\",\"arguments\":{\"name\":\"pick_city\",\"arguments\":{\"city\":\"Lisbon\"}}"),
            m -> {}));
    assertThat(text(got)).contains("Lisbon");

    BlockingQueue<Message> stream = new LinkedBlockingQueue<>();
    AtomicReference<Response> last = new AtomicReference<>();
    Thread listener = Thread.ofVirtual()
        .start(() -> last.set(session.handle(
            Wire.modern(9, "subscriptions/listen", "\"notifications\":{\"toolsListChanged\":true}"),
            stream::add)));
    Message ack = stream.poll(5, TimeUnit.SECONDS);
    assertThat(JsonCodec.write(MessageCodec.toJson(ack)))
        .contains("\"notifications\":{\"toolsListChanged\":true}");
    catalog.remove("pick_city");
    Message changed = stream.poll(5, TimeUnit.SECONDS);
    assertThat(changed).isInstanceOf(Notification.class);
    assertThat(((Notification) changed).method()).isEqualTo("notifications/tools/list_changed");
    SchemaHarness.of(ProtocolVersion.V2026_07_28)
        .assertConforms(MessageCodec.encode(changed), null);
    session.close();
    listener.join(5000);
  }

  @Test
  void withoutTheOptionThereAreNoTools() {
    McpServer plain = McpServer.builder().prompts(SampleCatalog.catalog()).build();
    ServerSession session = plain.openSession(m -> {});
    JsonObject init = ((ResultResponse) session.handle(
            request(
                1,
                "initialize",
                "{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"),
            m -> {}))
        .result();
    assertThat(init.object("capabilities").orElseThrow().has("tools")).isFalse();
    assertThat(((ErrorResponse) session.handle(request(2, "tools/list", "{}"), m -> {})).code())
        .isEqualTo(-32601);
    assertThat(((ErrorResponse)
                session.handle(Wire.modern(3, "tools/call", "\"name\":\"get_prompt\""), m -> {}))
            .code())
        .isEqualTo(-32601);
  }

  @Test
  void aLargeLibraryGetsAGenericSchema() {
    PromptCatalog many = PromptCatalog.create();
    for (int i = 0; i <= ToolsFeature.DETAILED; i++) {
      many.put(PromptDefinition.of(
          Prompt.of("p" + i, null, List.of()), args -> List.of(PromptMessage.user("x"))));
    }
    ServerSession session =
        McpServer.builder().prompts(many).promptsAsTools(true).build().openSession(m -> {});
    JsonObject tools = valid(
        "2026-07-28", "tools/list", session.handle(Wire.modern(1, "tools/list", ""), m -> {}));
    String get = JsonCodec.write(tools.array("tools").orElseThrow().elements().get(1));
    assertThat(get)
        .doesNotContain("\"enum\"")
        .doesNotContain("\"allOf\"")
        .contains("There are 101 prompts");
  }
}
