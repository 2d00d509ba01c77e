package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A legacy session (2025-06-18, 2025-11-25) whose client declared elicitation, over a channel that
 * carries the server's requests (stdio): a {@code prompts/get} with missing arguments sends
 * {@code elicitation/create} to the client, waits for the answer and renders; decline, an error, no
 * answer in time or a cancelled request end as the -32602 it would have been; a stray response is
 * ignored.
 */
class LegacyElicitationTest {
  private final McpServer server =
      McpServer.builder().elicitationTimeout(Duration.ofSeconds(2)).build();
  private final Recorder toClient = new Recorder();

  LegacyElicitationTest() {
    server
        .prompts()
        .put(PromptDefinition.of(
            Prompt.of(
                "greet",
                "Greets",
                List.of(new PromptArgument("who", "Who", "Whom to greet", true))),
            args -> List.of(PromptMessage.user("Hello, " + args.get("who")))));
  }

  @AfterEach
  void close() {
    server.close();
  }

  /**
   * A session whose requests' stream carries the server's requests (stdio) or not
   * ({@code carriesRequests}).
   */
  private ServerSession session(String version, String capabilities, boolean carriesRequests) {
    ServerSession s = server.openSession(toClient);
    streams.put(s, carriesRequests ? Outbound.carryingRequests(toClient) : toClient);
    s.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"" + version + "\",\"capabilities\":" + capabilities
            + ",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"),
        toClient);
    return s;
  }

  private final Map<ServerSession, Outbound> streams = new ConcurrentHashMap<>();

  private CompletableFuture<Response> get(ServerSession s, long id) {
    Call call =
        s.receive(new Incoming.Single(Wire.legacy(id, "prompts/get", "\"name\":\"greet\"")));
    assertThat(call.mayBlock())
        .as("it may wait for the user: never on the reading thread")
        .isTrue();
    Outbound stream = streams.get(s);
    return CompletableFuture.supplyAsync(
        () -> call.run(stream).response(), r -> Thread.ofVirtual().start(r));
  }

  /**
   * The next request the server sent the client (a list_changed for the prompt added at start may
   * come first).
   */
  private Request elicitation() throws InterruptedException {
    while (true) {
      if (((Incoming.Single) MessageCodec.decode(toClient.next())).message() instanceof Request r) {
        assertThat(r.method()).isEqualTo("elicitation/create");
        return r;
      }
    }
  }

  private static void answer(ServerSession s, Request r, String result) {
    s.receive(
        new Incoming.Single(new ResultResponse(r.id(), (JsonObject) JsonCodec.parse(result))));
  }

  @Test
  void theClientIsAskedAndThePromptRenders() throws Exception {
    for (String version : List.of("2025-06-18", "2025-11-25")) {
      ServerSession s = session(version, "{\"elicitation\":{}}", true);
      CompletableFuture<Response> pending = get(s, 2);
      Request asked = elicitation();
      String text = MessageCodec.encode(asked);
      String bare = JsonCodec.write(JsonObject.builder()
          .put("method", asked.method())
          .put("params", asked.params())
          .build());
      // 2025-11-25's ElicitRequest is the whole JSON-RPC request; 2025-06-18's only its method and
      // params.
      assertThat(SchemaHarness.of(ProtocolVersion.of(version).orElseThrow())
              .checkAs("ElicitRequest", version.equals("2025-11-25") ? text : bare))
          .isEmpty();
      assertThat(text)
          .contains(
              "\"message\":\"The prompt 'greet' needs more from you: Who is required.\"",
              "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"who\":{\"type\":\"string\"");
      assertThat(text.contains("\"mode\":\"form\""))
          .as(version)
          .isEqualTo(version.equals("2025-11-25"));
      answer(s, asked, "{\"action\":\"accept\",\"content\":{\"who\":\"Ada\"}}");
      assertThat(MessageCodec.encode(pending.get(10, TimeUnit.SECONDS))).contains("Hello, Ada");
    }
  }

  @Test
  void declineOrAnErrorIsTheInvalidParamsError() throws Exception {
    ServerSession s = session("2025-11-25", "{\"elicitation\":{\"form\":{}}}", true);
    CompletableFuture<Response> declined = get(s, 2);
    answer(s, elicitation(), "{\"action\":\"decline\"}");
    assertThat(MessageCodec.encode(declined.get(10, TimeUnit.SECONDS)))
        .contains(
            "\"code\":-32602",
            "missing required argument 'who' (the user declined the form asking for them)");
    CompletableFuture<Response> failed = get(s, 3);
    Request asked = elicitation();
    s.receive(new Incoming.Single(new ErrorResponse(asked.id(), -32601, "no", null)));
    assertThat(MessageCodec.encode(failed.get(10, TimeUnit.SECONDS)))
        .contains("\"code\":-32602", "(the client could not show the form asking for them)");
  }

  @Test
  void noAnswerInTimeCostsNothingAfterTheTimeoutAndALateOrStrayAnswerIsIgnored() throws Exception {
    ServerSession s = session("2025-11-25", "{\"elicitation\":{}}", true);
    CompletableFuture<Response> pending = get(s, 2);
    Request asked = elicitation();
    assertThat(MessageCodec.encode(pending.get(10, TimeUnit.SECONDS)))
        .contains("\"code\":-32602", "(no answer to the form asking for them within 2 s)");
    answer(
        s,
        asked,
        "{\"action\":\"accept\",\"content\":{\"who\":\"late\"}}"); // ignored, with a log line
    answer(s, new Request(RequestId.of("never-sent"), "x", JsonObject.EMPTY), "{}");
    assertThat(MessageCodec.encode(s.handle(Wire.legacy(4, "ping", ""), toClient)))
        .contains("\"result\":{}");
  }

  @Test
  void cancellingTheRequestEndsTheWait() throws Exception {
    ServerSession s = session("2025-11-25", "{\"elicitation\":{}}", true);
    CompletableFuture<Response> pending = get(s, 7);
    elicitation();
    s.handle(Wire.cancelled(7));
    assertThat(pending.get(10, TimeUnit.SECONDS))
        .as("a cancelled request is not answered")
        .isNull();
  }

  @Test
  void withoutTheCapabilityTheChannelOrTheVersionNobodyIsAsked() throws Exception {
    for (ServerSession s : List.of(
        session("2025-11-25", "{}", true),
        session("2025-11-25", "{\"elicitation\":{}}", false),
        session("2025-03-26", "{\"elicitation\":{}}", true))) {
      Response r = s.handle(Wire.legacy(2, "prompts/get", "\"name\":\"greet\""), streams.get(s));
      assertThat(MessageCodec.encode(r))
          .contains("\"code\":-32602", "missing required argument 'who'");
    }
    assertThat(toClient.all()).noneMatch(m -> m.contains("elicitation/create"));
  }
}
