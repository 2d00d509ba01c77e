package io.promptd.mcp.client;

import static io.promptd.mcp.client.FakeHttpServer.LEGACY_INIT;
import static io.promptd.mcp.client.FakeHttpServer.MODERN_DISCOVER;
import static io.promptd.mcp.client.FakeHttpServer.PROMPTS;
import static io.promptd.mcp.client.FakeHttpServer.error;
import static io.promptd.mcp.client.FakeHttpServer.event;
import static io.promptd.mcp.client.FakeHttpServer.result;
import static io.promptd.mcp.client.FakeHttpServer.send;
import static io.promptd.mcp.client.FakeHttpServer.startEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The HTTP channel and era detection against real, small HTTP servers that misbehave on purpose.
 */
class HttpChannelTest {
  private static final ClientOptions OPTIONS =
      ClientOptions.defaults().withTimeout(Duration.ofSeconds(10));

  /** A legacy server: the modern probe gets a plain 400; sessions are named s1, s2, ... */
  private static FakeHttpServer.Handler legacy(FakeHttpServer.Handler rest) {
    AtomicInteger sessions = new AtomicInteger();
    return (seen, rpc, exchange) -> {
      switch (seen.rpcMethod()) {
        case "server/discover" ->
          send(exchange, 400, "text/plain", "Bad Request: No valid session ID provided");
        case "initialize" ->
          send(
              exchange,
              200,
              "application/json",
              result(rpc, LEGACY_INIT),
              "Mcp-Session-Id",
              "s" + sessions.incrementAndGet());
        case "notifications/initialized" -> send(exchange, 202, "", "");
        default -> rest.handle(seen, rpc, exchange);
      }
    };
  }

  /** A modern server: discover succeeds; the rest is up to the test. */
  private static FakeHttpServer.Handler modern(FakeHttpServer.Handler rest) {
    return (seen, rpc, exchange) -> {
      if (seen.rpcMethod().equals("server/discover")) {
        send(exchange, 200, "application/json", result(rpc, MODERN_DISCOVER));
      } else {
        rest.handle(seen, rpc, exchange);
      }
    };
  }

  private static void prompts(FakeHttpServer.Seen seen, JsonObject rpc, HttpExchange exchange)
      throws IOException {
    send(exchange, 200, "application/json", result(rpc, PROMPTS));
  }

  @Test
  void aModernServerIsDetectedAndGetsTheModernHeaders() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern(HttpChannelTest::prompts));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThat(client.modern()).isTrue();
      assertThat(client.serverInfo()).isNotNull().extracting(i -> i.name()).isEqualTo("fake");
      assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("greet");
      FakeHttpServer.Seen list = server.seen.getLast();
      assertThat(list.header("Mcp-Method")).isEqualTo("prompts/list");
      assertThat(list.header("MCP-Protocol-Version")).isEqualTo("2026-07-28");
      assertThat(list.header("Mcp-Session-Id")).isEmpty();
      assertThat(server.methods()).containsExactly("server/discover", "prompts/list");
    }
  }

  @Test
  void everyRequestCarriesTheConfiguredHeadersInBothEras() throws Exception {
    ClientOptions withToken = OPTIONS.withBearerToken("t0k3n").withHeader("X-Team", "blue");
    for (FakeHttpServer.Handler h : List.<FakeHttpServer.Handler>of(
        modern(HttpChannelTest::prompts), legacy(HttpChannelTest::prompts))) {
      try (FakeHttpServer server = new FakeHttpServer(h);
          McpClient client = McpClient.connectHttp(server.uri(), withToken)) {
        client.listPrompts();
        assertThat(server.seen).isNotEmpty().allSatisfy(seen -> {
          assertThat(seen.header("Authorization")).isEqualTo("Bearer t0k3n");
          assertThat(seen.header("X-Team")).isEqualTo("blue");
        });
      }
    }
  }

  @Test
  void aLegacyServerRefusingTheProbeWithAPlain400GetsInitialize() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(legacy(HttpChannelTest::prompts));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThat(client.modern()).isFalse();
      assertThat(client.protocolVersion()).isEqualTo("2025-11-25");
      assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("greet");
      assertThat(server.methods())
          .containsExactly(
              "server/discover", "initialize", "notifications/initialized", "prompts/list");
      assertThat(server.seen.getLast().header("Mcp-Session-Id")).isEqualTo("s1");
      assertThat(server.seen.getLast().header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    }
  }

  @Test
  void aModernServerRefusingTheVersionIsAnErrorNotAFallback() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer((seen, rpc, exchange) -> send(
        exchange,
        400,
        "application/json",
        "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpServer.id(rpc)
            + ",\"error\":{\"code\":-32022,\"message\":"
            + "\"Unsupported protocol version\",\"data\":{\"supported\":[\"2027-01-01\"],\"requested\":"
            + "\"2026-07-28\"}}}"))) {
      assertThatThrownBy(() -> McpClient.connectHttp(server.uri(), OPTIONS))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32022))
          .hasMessageContaining("[\"2027-01-01\"]");
      assertThat(server.methods()).containsExactly("server/discover");
    }
  }

  @Test
  void anAnswerWithTheWrongContentTypeIsAClearError() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) ->
            send(exchange, 200, "text/html", "<html>a captive portal</html>")));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(client::listPrompts)
          .isInstanceOf(IOException.class)
          .hasMessage("prompts/list to " + server.uri()
              + ": HTTP 200 with Content-Type 'text/html'; expected a "
              + "JSON-RPC response as application/json or text/event-stream");
    }
  }

  @Test
  void jsonThatIsNotTheResponseIsAClearError() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern(
            (seen, rpc, exchange) -> send(exchange, 200, "application/json", "{\"prompts\":[]}")));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(client::listPrompts)
          .isInstanceOf(IOException.class)
          .hasMessageContaining(
              "HTTP 200 with Content-Type 'application/json' but no JSON-RPC response");
    }
  }

  @Test
  void anEventStreamThatEndsBeforeTheResponseIsAClearError() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          OutputStream out = startEvents(exchange);
          event(
              out,
              "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\","
                  + "\"data\":\"working\"}}");
          out.write(
              "data: {\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8)); // cut off
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(client::listPrompts)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("prompts/list to " + server.uri())
          .hasMessageContaining("the event stream ended before the response to request 2");
    }
  }

  @Test
  void aSlowAnswerTimesOutWithAClearErrorAndTheRequestIsAbandoned() throws Exception {
    CountDownLatch gaveUp = new CountDownLatch(1);
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          OutputStream out = startEvents(exchange);
          try {
            for (int i = 0; i < 1000; i++) { // a keep-alive comment every 20 ms, never an answer
              out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
              out.flush();
              Thread.sleep(20); // pacing the fake server's output, not waiting for the client
            }
          } catch (IOException e) {
            gaveUp.countDown(); // the client closed the stream
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        McpClient client =
            McpClient.connectHttp(server.uri(), OPTIONS.withTimeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(client::listPrompts)
          .isInstanceOf(RequestTimeoutException.class)
          .hasMessage("no answer to prompts/list within 300 ms");
      assertThat(gaveUp.await(10, TimeUnit.SECONDS))
          .as("the client closed the abandoned stream")
          .isTrue();
    }
  }

  @Test
  void aSlowServerThatSendsNoHeadersTimesOutToo() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          try {
            release.await(20, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        McpClient client =
            McpClient.connectHttp(server.uri(), OPTIONS.withTimeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(client::listPrompts).isInstanceOf(RequestTimeoutException.class);
    } finally {
      release.countDown();
    }
  }

  @Test
  void aLegacySessionTheServerForgotIsStartedAgainAndTheRequestRetried() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(legacy((seen, rpc, exchange) -> {
          if (seen.header("Mcp-Session-Id").equals("s1")) {
            send(exchange, 404, "text/plain", "Session not found");
          } else {
            prompts(seen, rpc, exchange);
          }
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("greet");
      assertThat(server.methods())
          .containsExactly(
              "server/discover",
              "initialize",
              "notifications/initialized",
              "prompts/list",
              "initialize",
              "notifications/initialized",
              "prompts/list");
      FakeHttpServer.Seen secondInit = server.seen.stream()
          .filter(s -> s.rpcMethod().equals("initialize"))
          .toList()
          .get(1);
      assertThat(secondInit.header("Mcp-Session-Id"))
          .as("a new session starts without an id")
          .isEmpty();
      assertThat(server.seen.getLast().header("Mcp-Session-Id")).isEqualTo("s2");
    }
  }

  @Test
  void aSessionThatCannotBeStartedAgainIsAClearError() throws Exception {
    AtomicInteger inits = new AtomicInteger();
    try (FakeHttpServer server = new FakeHttpServer((seen, rpc, exchange) -> {
          switch (seen.rpcMethod()) {
            case "server/discover" -> send(exchange, 400, "text/plain", "no");
            case "initialize" -> {
              if (inits.incrementAndGet() == 1) {
                send(
                    exchange,
                    200,
                    "application/json",
                    result(rpc, LEGACY_INIT),
                    "Mcp-Session-Id",
                    "s1");
              } else {
                send(exchange, 503, "text/plain", "too many sessions");
              }
            }
            case "notifications/initialized" -> send(exchange, 202, "", "");
            default -> send(exchange, 404, "text/plain", "Session not found");
          }
        });
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(client::listPrompts)
          .isInstanceOf(IOException.class)
          .hasMessage("the session at " + server.uri()
              + " ended (HTTP 404) and a new one could not be started: "
              + "HTTP 503: too many sessions");
    }
  }

  @Test
  void aLegacyServerAnswering405ToGetStillLetsTheClientWatch() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(legacy((seen, rpc, exchange) -> {
          if (seen.httpMethod().equals("GET")) {
            send(exchange, 405, "", "", "Allow", "POST, DELETE");
          } else {
            prompts(seen, rpc, exchange);
          }
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      try (AutoCloseable watch = client.watchPrompts(() -> {})) {
        assertThat(server.seen).anyMatch(s -> s.httpMethod().equals("GET"));
      }
      assertThat(client.listPrompts()).hasSize(1);
    }
  }

  @Test
  void aLegacyGetRefusedOtherwiseIsAnError() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(
            legacy((seen, rpc, exchange) -> send(exchange, 500, "text/plain", "boom")));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(() -> client.watchPrompts(() -> {}))
          .isInstanceOfSatisfying(
              HttpStatusException.class, e -> assertThat(e.status()).isEqualTo(500));
    }
  }

  @Test
  void aLegacyWatchReturnsOnceTheGetStreamIsOpen() throws Exception {
    CountDownLatch watching = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    try (FakeHttpServer server = new FakeHttpServer(legacy((seen, rpc, exchange) -> {
          if (!seen.httpMethod().equals("GET")) {
            send(exchange, 202, "", "");
            return;
          }
          OutputStream out = startEvents(exchange);
          try {
            // The client returns from watchPrompts when these headers arrive; the change comes
            // after that.
            if (watching.await(10, TimeUnit.SECONDS)) {
              event(out, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
            }
            done.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      CountDownLatch changed = new CountDownLatch(1);
      try (AutoCloseable watch = client.watchPrompts(changed::countDown)) {
        watching.countDown();
        assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
      } finally {
        done.countDown();
      }
    }
  }

  @Test
  void aModernWatchReturnsAfterTheAcknowledgementAndHearsChanges() throws Exception {
    CountDownLatch watching = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          String id = FakeHttpServer.id(rpc);
          OutputStream out = startEvents(exchange);
          String meta = "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":" + id + "}";
          event(
              out,
              "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{"
                  + meta + ",\"notifications\":{\"promptsListChanged\":true}}}");
          try {
            if (watching.await(10, TimeUnit.SECONDS)) {
              event(
                  out,
                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\",\"params\":{"
                      + meta + "}}");
            }
            done.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      CountDownLatch changed = new CountDownLatch(1);
      try (AutoCloseable watch = client.watchPrompts(changed::countDown)) {
        watching.countDown();
        assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
      } finally {
        done.countDown();
      }
    }
  }

  @Test
  void aRefusedListenIsThrownNotDropped() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> send(
            exchange,
            400,
            "application/json",
            error(rpc, -32602, "promptsListChanged is not supported"))));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(() -> client.watchPrompts(() -> {}))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602))
          .hasMessageContaining(
              "subscriptions/listen refused: promptsListChanged is not supported");
    }
  }

  @Test
  void aListenStreamThatEndsUnacknowledgedIsThrown() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          OutputStream out = startEvents(exchange);
          event(out, result(rpc, "{\"resultType\":\"complete\"}"));
        }));
        McpClient client = McpClient.connectHttp(server.uri(), OPTIONS)) {
      assertThatThrownBy(() -> client.watchPrompts(() -> {}))
          .isInstanceOf(IOException.class)
          .hasMessage("the subscriptions/listen stream to " + server.uri()
              + " ended before the server " + "acknowledged it");
    }
  }

  @Test
  void aListenNeverAcknowledgedTimesOut() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (FakeHttpServer server = new FakeHttpServer(modern((seen, rpc, exchange) -> {
          startEvents(exchange).flush();
          try {
            done.await(20, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        McpClient client =
            McpClient.connectHttp(server.uri(), OPTIONS.withTimeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(() -> client.watchPrompts(() -> {}))
          .isInstanceOf(RequestTimeoutException.class)
          .hasMessage("no answer to subscriptions/listen (no acknowledgement) within 300 ms");
    } finally {
      done.countDown();
    }
  }
}
