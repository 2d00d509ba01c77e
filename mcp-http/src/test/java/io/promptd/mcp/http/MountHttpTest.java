package io.promptd.mcp.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The public mount seam: an embedder's {@link HttpMount} on the MCP port (Host checked, no token,
 * no request event) and on the admin listener, which also serves the probes and never the MCP
 * endpoint.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MountHttpTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final HttpMount HELLO = (request, response) -> response
      .header("Cache-Control", "no-store")
      .send(
          200,
          "text/plain; charset=utf-8",
          ("hello " + request.method() + " " + request.path()).getBytes(UTF_8));

  private final LinkedBlockingQueue<RequestEvent> events = new LinkedBlockingQueue<>();
  private McpServer server;
  private HttpTransport http;

  @BeforeEach
  void server() {
    server = ConformanceFixtures.server();
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    server.close();
  }

  @Test
  void aMountIsServedWithoutTheTokenAfterTheHostCheckAndRaisesNoEvent() throws Exception {
    http = HttpTransport.builder()
        .server(server)
        .bearerToken("mount-token-1234")
        .onRequest(events::add)
        .mount("/hello", HELLO)
        .mount("/broken", (request, response) -> {
          throw new IOException("broken on purpose");
        })
        .build()
        .start();
    HttpResponse<String> hello = get(URI.create("http://127.0.0.1:" + http.port() + "/hello"));
    assertThat(hello.statusCode()).isEqualTo(200);
    assertThat(hello.body()).isEqualTo("hello GET /hello");
    assertThat(hello.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    assertThat(hello.headers().firstValue("cache-control")).hasValue("no-store");
    assertThat(TestClient.rawStatus(
            http.port(), "GET /hello HTTP/1.1\r\nHost: evil.example.com\r\n", ""))
        .isEqualTo(403);
    assertThat(get(URI.create("http://127.0.0.1:" + http.port() + "/broken")).statusCode())
        .isEqualTo(500);
    assertThat(
            get(URI.create("http://127.0.0.1:" + http.port() + "/hello/more")).statusCode())
        .isEqualTo(404);
    // The 403, the 500 and the 404 are refusals, which raise events; the answer the mount sent does
    // not. An event is raised once its exchange has completed, which may be after the client has
    // read the answer and sent the next request: their order is not the requests'.
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RequestEvent event = events.poll(10, TimeUnit.SECONDS);
      assertThat(event).as("event " + (i + 1) + " of 3").isNotNull();
      statuses.add(event.status());
    }
    assertThat(statuses).containsExactlyInAnyOrder(403, 500, 404);
    assertThat(events).isEmpty();
    assertThat(http.adminUri()).isEmpty();
  }

  @Test
  void aMountReadsABodyUpToItsLimit() throws Exception {
    http = HttpTransport.builder()
        .server(server)
        .mount("/hook", (request, response) -> {
          byte[] body = request.body(8);
          if (body == null) {
            response.refuse(413, "too large");
          } else {
            response.send(202, "text/plain", ("got " + new String(body, UTF_8)).getBytes(UTF_8));
          }
        })
        .build()
        .start();
    URI hook = URI.create("http://127.0.0.1:" + http.port() + "/hook");
    HttpResponse<String> small = HTTP.send(
        HttpRequest.newBuilder(hook)
            .POST(HttpRequest.BodyPublishers.ofString("12345678"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(small.statusCode()).isEqualTo(202);
    assertThat(small.body()).isEqualTo("got 12345678");
    HttpResponse<String> large = HTTP.send(
        HttpRequest.newBuilder(hook)
            .POST(HttpRequest.BodyPublishers.ofString("123456789"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(large.statusCode()).isEqualTo(413);
  }

  @Test
  void theAdminListenerServesItsMountsAndTheProbesButNeverTheEndpoint() throws Exception {
    http = HttpTransport.builder()
        .server(server)
        .onRequest(events::add)
        .readinessCheck("ready", () -> true)
        .mount("/page", HELLO)
        .admin("127.0.0.1", 0)
        .adminMount("/metrics", HELLO)
        .build()
        .start();
    URI admin = http.adminUri().orElseThrow();
    assertThat(admin.toString()).matches("http://127\\.0\\.0\\.1:\\d+");
    assertThat(admin.getPort()).isNotEqualTo(http.port());
    assertThat(get(admin.resolve("/metrics")).body()).isEqualTo("hello GET /metrics");
    assertThat(get(admin.resolve("/healthz")).body()).isEqualTo("{\"status\":\"alive\"}");
    assertThat(get(admin.resolve("/readyz")).body()).isEqualTo("{\"status\":\"ready\"}");
    assertThat(get(admin.resolve("/mcp")).statusCode()).isEqualTo(404);
    assertThat(get(admin.resolve("/page")).statusCode())
        .as("the MCP port's mounts stay there")
        .isEqualTo(404);
    assertThat(get(URI.create("http://127.0.0.1:" + http.port() + "/metrics")).statusCode())
        .as("admin mounts are never on the MCP port")
        .isEqualTo(404);
    assertThat(TestClient.rawStatus(
            admin.getPort(), "GET /metrics HTTP/1.1\r\nHost: evil.example.com\r\n", ""))
        .as("DNS rebinding")
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(
            admin.getPort(), "GET /metrics HTTP/1.1\r\nHost: localhost:1\r\n", ""))
        .as("any port of a loopback name")
        .isEqualTo(200);
    assertThat(events.poll(10, TimeUnit.SECONDS))
        .as("the MCP port's 404 for /metrics")
        .extracting(RequestEvent::status)
        .isEqualTo(404);
    assertThat(events).as("the admin listener raises no request events").isEmpty();
  }

  @Test
  void mountPathsAreCheckedWhereTheyAreGiven() {
    HttpTransportBuilder b = HttpTransport.builder().server(server).mount("/page", HELLO);
    assertThatThrownBy(() -> b.mount("/page", HELLO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HttpTransportBuilder.mount: /page is mounted already");
    assertThatThrownBy(() -> b.mount("page", HELLO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must start with '/'");
    assertThatThrownBy(() -> b.mount("/healthz", HELLO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HttpTransportBuilder.mount: /healthz is served by the transport");
    assertThatThrownBy(() -> b.mount("/sse", HELLO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HttpTransportBuilder.mount: /sse is served by the transport");
    assertThatThrownBy(() -> b.path("/page").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the MCP path /page would hide it");
    assertThatThrownBy(() ->
            HttpTransport.builder().server(server).adminMount("/metrics", HELLO).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("HttpTransportBuilder.build: adminMount(...) needs" + " admin(...)");
    assertThatThrownBy(() -> HttpTransport.builder().admin("127.0.0.1", 70_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0..65535");
  }

  @Test
  void anAuthenticatedMountNeedsTheTokenAndSeesTheCallerAndQuery() throws Exception {
    http = HttpTransport.builder()
        .server(server)
        .bearerToken("mount-token-1234")
        .authenticatedMount(
            "/who",
            (request, response) -> response.send(
                200,
                "text/plain; charset=utf-8",
                ("unrestricted=" + request.caller().unrestricted() + " query=" + request.query())
                    .getBytes(UTF_8)))
        .build()
        .start();
    URI who = URI.create("http://127.0.0.1:" + http.port() + "/who?name=a%20b");
    assertThat(get(who).statusCode()).isEqualTo(401);
    HttpResponse<String> wrong = HTTP.send(
        HttpRequest.newBuilder(who)
            .header("Authorization", "Bearer another-token-5678")
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(wrong.statusCode()).isEqualTo(401);
    HttpResponse<String> right = HTTP.send(
        HttpRequest.newBuilder(who)
            .header("Authorization", "Bearer mount-token-1234")
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(right.body()).isEqualTo("unrestricted=true query=name=a%20b");
  }

  @Test
  void anErrorInAHandlerIs500WithNoClassNameOrMessageAndTheServerGoesOn() throws Exception {
    http = HttpTransport.builder()
        .server(server)
        .mount("/hello", HELLO)
        .mount("/assert", (request, response) -> {
          throw new AssertionError("secret detail");
        })
        .mount("/linkage", (request, response) -> {
          throw new IncompatibleClassChangeError("secret detail");
        })
        .build()
        .start();
    for (String path : List.of("/assert", "/linkage", "/assert")) {
      HttpResponse<String> failed = get(URI.create("http://127.0.0.1:" + http.port() + path));
      assertThat(failed.statusCode()).as(path).isEqualTo(500);
      assertThat(failed.body())
          .as(path)
          .doesNotContain("secret")
          .doesNotContain("Error")
          .doesNotContain("java.");
    }
    assertThat(get(URI.create("http://127.0.0.1:" + http.port() + "/hello")).body())
        .isEqualTo("hello GET /hello");
  }

  private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
