package io.promptd.mcp.http.internal.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.internal.auth.Authenticator;
import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.MemoryIo;
import io.promptd.mcp.http.internal.exchange.Router;
import io.promptd.mcp.http.internal.exchange.StreamLimit;
import io.promptd.mcp.http.internal.exchange.Telemetry;
import io.promptd.mcp.http.internal.session.SessionClock;
import io.promptd.mcp.http.internal.session.SessionRegistry;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.StreamQueue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MCP port's routes driven in memory: a {@link Router} with the MCP endpoint, as the transport
 * mounts it, and exchanges over a {@link MemoryIo}; no server, no socket.
 */
class McpRoutesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int MAX_BODY = 1024;
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
          + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

  private McpServer server;
  private ModernEndpoint modern;
  private SessionRegistry sessions;
  private Telemetry telemetry;
  private Router router;

  @BeforeEach
  void mount() {
    server = McpServer.builder().build();
    Gate gate = new Gate();
    gate.open(
        new Guard(MemoryIo.PORT, "127.0.0.1", List.of(), List.of(), List.of()), Authenticator.NONE);
    sessions = new SessionRegistry(Duration.ofMinutes(30), 100, 10, SessionClock.SYSTEM);
    StreamQueue.Limits limits = StreamQueue.Limits.DEFAULT;
    Duration keepAlive = Duration.ofSeconds(15);
    modern = new ModernEndpoint(server, keepAlive, Duration.ofSeconds(1), limits);
    LegacyEndpoint legacy = new LegacyEndpoint(server, sessions, keepAlive, limits, null);
    McpEndpoint endpoint =
        new McpEndpoint(server, gate, MAX_BODY, legacy, modern, new StreamLimit(4));
    telemetry = new Telemetry(
        List.of(),
        Map.of(),
        (time,
            transport,
            httpMethod,
            era,
            method,
            prompt,
            outcome,
            status,
            errorCode,
            duration,
            subject) -> {
          throw new AssertionError("no listener: no event is made");
        });
    router = new Router(ex -> ex.refuse(404, "Not Found: the MCP endpoint is /mcp"));
    router.mount("/mcp", endpoint);
  }

  @AfterEach
  void close() {
    sessions.closeAll();
    modern.close();
    server.close();
  }

  @Test
  void initializeOpensASessionAndAnswersJson() throws Exception {
    MemoryIo io = serve(post(INITIALIZE));
    assertThat(io.status()).isEqualTo(200);
    assertThat(io.responseHeader("Content-Type")).isEqualTo("application/json");
    assertThat(io.responseHeader("Mcp-Session-Id")).isNotBlank();
    JsonObject answer = (JsonObject) JsonCodec.parse(io.responseBody());
    assertThat(answer.object("result").flatMap(r -> r.string("protocolVersion")))
        .contains("2025-06-18");
    assertThat(sessions.size()).isEqualTo(1);
  }

  @Test
  void getWithoutASessionIsABadRequest() throws Exception {
    MemoryIo io = serve(MemoryIo.request("GET", "/mcp").header("Accept", "text/event-stream"));
    assertThat(io.status()).isEqualTo(400);
    assertThat(io.responseBody()).contains("Mcp-Session-Id header is required");
    assertThat(io.responseHeader("Mcp-Session-Id")).isNull();
  }

  @Test
  void anUnknownPathIsNotFound() throws Exception {
    MemoryIo io = serve(MemoryIo.request("POST", "/other")
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .body(INITIALIZE));
    assertThat(io.status()).isEqualTo(404);
    assertThat(sessions.size()).isZero();
  }

  @Test
  void aBodyOverTheLimitIsTooLargeAndClosesTheConnection() throws Exception {
    String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
        + "x".repeat(MAX_BODY) + "\"}}";
    MemoryIo io = serve(post(big));
    assertThat(io.status()).isEqualTo(413);
    assertThat(io.responseHeader("Connection")).isEqualTo("close");
  }

  @Test
  void aPostThatDoesNotAcceptAnEventStreamIsNotAcceptable() throws Exception {
    MemoryIo io = serve(MemoryIo.request("POST", "/mcp")
        .header("Accept", "application/json")
        .header("Content-Type", "application/json")
        .body(INITIALIZE));
    assertThat(io.status()).isEqualTo(406);
    assertThat(sessions.size()).isZero();
  }

  @Test
  void aPostThatIsNotJsonIsAnUnsupportedMediaType() throws Exception {
    MemoryIo io = serve(MemoryIo.request("POST", "/mcp")
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "text/plain")
        .body(INITIALIZE));
    assertThat(io.status()).isEqualTo(415);
    assertThat(sessions.size()).isZero();
  }

  @Test
  void aForeignOriginIsForbidden() throws Exception {
    MemoryIo request = MemoryIo.request("POST", "/mcp");
    MemoryIo io = serve(withPostHeaders(request).header("Origin", "https://evil.example"));
    assertThat(io.status()).isEqualTo(403);
    assertThat(sessions.size()).isZero();
  }

  private static MemoryIo post(String body) {
    return withPostHeaders(MemoryIo.request("POST", "/mcp")).body(body);
  }

  private static MemoryIo withPostHeaders(MemoryIo io) {
    return io.header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json");
  }

  /**
   * Serves {@code io}'s request by its route, as the transport's handler does, and waits for the
   * answer.
   */
  private MemoryIo serve(MemoryIo io) throws Exception {
    Exchange ex = new Exchange(io, telemetry, false);
    router.route(ex.path()).serve(ex);
    return io.await(WAIT);
  }
}
