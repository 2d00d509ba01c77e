package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.RequestEvent.Era;
import io.promptd.mcp.http.RequestEvent.Outcome;
import io.promptd.mcp.server.McpServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Health probes, readiness checks, request events and the open-stream gauge, against a real server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperationsHttpTest {
  private final LinkedBlockingQueue<RequestEvent> events = new LinkedBlockingQueue<>();
  private final AtomicBoolean warm = new AtomicBoolean();
  private McpServer server;
  private HttpTransport http;
  private TestClient client;

  @BeforeEach
  void start() throws Exception {
    server = ConformanceFixtures.server();
    http = HttpTransport.builder()
        .server(server)
        .keepAliveInterval(Duration.ofMillis(100))
        .readinessCheck("always", () -> true)
        .readinessCheck("warm", warm::get)
        .onRequest(events::add)
        .onRequest(e -> {
          if ("initialize".equals(e.method())) {
            throw new IllegalStateException(
                "a broken listener must not break the others or the answer");
          }
        })
        .build()
        .start();
    client = new TestClient(http.uri());
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  @Test
  void healthzIsAliveAndReadyzNamesTheFailingChecksUntilTheyPass() throws Exception {
    HttpResponse<String> alive = probe("/healthz");
    assertThat(alive.statusCode()).isEqualTo(200);
    assertThat(alive.body()).isEqualTo("{\"status\":\"alive\"}");
    HttpResponse<String> notReady = probe("/readyz");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).isEqualTo("{\"status\":\"not ready\",\"failing\":[\"warm\"]}");
    assertThat(http.notReady()).containsExactly("warm");
    warm.set(true);
    HttpResponse<String> ready = probe("/readyz");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("{\"status\":\"ready\"}");
    assertThat(http.notReady()).isEmpty();
    assertThat(events).as("probes raise no request events").isEmpty();
    http.close();
    assertThat(http.notReady())
        .as("a stopping server is not ready")
        .containsExactly("server running");
  }

  @Test
  void probesStillCheckTheHostHeader() throws Exception {
    String head = "GET /healthz HTTP/1.1\r\n";
    assertThat(TestClient.rawStatus(http.port(), head + "Host: evil.example.com\r\n", ""))
        .isEqualTo(403);
    assertThat(
            TestClient.rawStatus(http.port(), head + "Host: localhost:" + http.port() + "\r\n", ""))
        .isEqualTo(200);
  }

  @Test
  void everyRequestRaisesOneEventWithItsEraMethodPromptAndOutcome() throws Exception {
    String session = client.initialize("2025-06-18");
    assertThat(next().method()).isEqualTo("initialize");
    RequestEvent initialized = next();
    assertThat(initialized.method()).isEqualTo("notifications/initialized");
    assertThat(initialized.status()).isEqualTo(202);

    client.post(
        request(
            2,
            "prompts/get",
            "{\"name\":\"test_prompt_with_arguments\",\"arguments\":"
                + "{\"arg1\":\"s3cret-value\",\"arg2\":\"b\"}}"),
        "Mcp-Session-Id",
        session,
        "MCP-Protocol-Version",
        "2025-06-18");
    RequestEvent get = next();
    assertThat(get.era()).isEqualTo(Era.LEGACY);
    assertThat(get.httpMethod()).isEqualTo("POST");
    assertThat(get.method()).isEqualTo("prompts/get");
    assertThat(get.prompt()).isEqualTo("test_prompt_with_arguments");
    assertThat(get.outcome()).isEqualTo(Outcome.OK);
    assertThat(get.status()).isEqualTo(200);
    assertThat(get.errorCode()).isEmpty();
    assertThat(get.subject()).isNull();
    assertThat(get.duration()).isPositive();
    assertThat(get.toString()).doesNotContain("s3cret-value");

    client.post(
        modern(3, "prompts/get", "\"name\":\"no_such_prompt\""),
        modernHeaders("prompts/get", "no_such_prompt"));
    RequestEvent unknown = next();
    assertThat(unknown.era()).isEqualTo(Era.MODERN);
    assertThat(unknown.prompt()).isEqualTo("no_such_prompt");
    assertThat(unknown.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(unknown.errorCode()).isEqualTo(OptionalInt.of(-32602));

    client.post(
        modern(
            4,
            "completion/complete",
            "\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                + "\"test_prompt_with_arguments\"},\"argument\":{\"name\":\"arg1\",\"value\":\"x\"}"),
        modernHeaders("completion/complete", "test_prompt_with_arguments"));
    RequestEvent complete = next();
    assertThat(complete.method()).isEqualTo("completion/complete");
    assertThat(complete.prompt()).isEqualTo("test_prompt_with_arguments");
    assertThat(complete.outcome()).isEqualTo(Outcome.OK);

    assertThat(client
            .delete("Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18")
            .statusCode())
        .isEqualTo(204);
    RequestEvent deleted = next();
    assertThat(deleted.httpMethod()).isEqualTo("DELETE");
    assertThat(deleted.method()).isNull();
    assertThat(deleted.outcome()).isEqualTo(Outcome.OK);

    client.post(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "Origin",
        "http://evil.example");
    RequestEvent refused = next();
    assertThat(refused.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.era()).isEqualTo(Era.NONE);
    assertThat(refused.method()).isNull();
  }

  @Test
  void openStreamsCountsListenStreamsUntilTheyEnd() throws Exception {
    assertThat(http.openStreams()).isZero();
    HttpResponse<InputStream> r = client.postStream(
        modern(9, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"),
        modernHeaders("subscriptions/listen", null));
    try (TestClient.Events stream = new TestClient.Events(r.body())) {
      assertThat(stream.next(Duration.ofSeconds(5)).data()).contains("acknowledged");
      assertThat(http.openStreams()).isEqualTo(1);
    }
    RequestEvent listen = next();
    assertThat(listen.method()).isEqualTo("subscriptions/listen");
    assertThat(listen.outcome()).isEqualTo(Outcome.CANCELLED); // the client closed it
    assertThat(http.openStreams()).isZero();
  }

  private RequestEvent next() throws InterruptedException {
    RequestEvent e = events.poll(10, TimeUnit.SECONDS);
    assertThat(e).as("a request event").isNotNull();
    return e;
  }

  private HttpResponse<String> probe(String path) throws Exception {
    try (HttpClient h = HttpClient.newHttpClient()) {
      return h.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }
}
