package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Safe by default: Host and Origin checks, bearer token, Accept, Content-Type, body limit, methods,
 * error bodies.
 */
class SecurityHttpTest {
  private static final String INIT = request(
      1,
      "initialize",
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
  private static McpServer server;
  private static HttpTransport http;
  private static TestClient client;

  @BeforeAll
  static void start() throws Exception {
    server = ConformanceFixtures.server();
    http = HttpTransport.builder()
        .server(server)
        .limits(HttpLimits.DEFAULTS.withMaxBodyBytes(1024))
        .allowedOrigins(List.of("https://app.example.com"))
        .build()
        .start();
    client = new TestClient(http.uri());
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
  }

  @Test
  void bindsLoopbackByDefault() {
    assertThat(http.uri()).isEqualTo(URI.create("http://127.0.0.1:" + http.port() + "/mcp"));
  }

  @Test
  void foreignHostHeadersGet403() throws Exception {
    int port = http.port();
    String head = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: "
        + TestClient.ACCEPT_BOTH + "\r\n";
    assertThat(TestClient.rawStatus(port, head + "Host: evil.example.com\r\n", INIT))
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(port, head + "Host: localhost:" + (port + 1) + "\r\n", INIT))
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(port, head + "Host: localhost:" + port + "\r\n", INIT))
        .isEqualTo(200);
    assertThat(TestClient.rawStatus(port, head + "Host: [::1]:" + port + "\r\n", INIT))
        .isEqualTo(200);
  }

  @Test
  void foreignOriginsGet403AndConfiguredOnesPass() {
    HttpResponse<String> evil = client.post(INIT, "Origin", "http://evil.example.com");
    assertThat(evil.statusCode()).isEqualTo(403);
    assertThat(evil.headers().firstValue("connection"))
        .as("the unread body ends the connection; the client is told")
        .hasValue("close");
    assertThat(evil.body())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Forbidden: Origin not allowed\"}}");
    assertThat(
            client.post(INIT, "Origin", "http://localhost:" + (http.port() + 1)).statusCode())
        .isEqualTo(403);
    assertThat(client.post(INIT, "Origin", "null").statusCode()).isEqualTo(403);
    assertThat(client.post(INIT, "Origin", "http://127.0.0.1:" + http.port()).statusCode())
        .isEqualTo(200);
    assertThat(client.post(INIT, "Origin", "https://app.example.com").statusCode())
        .isEqualTo(200);
  }

  /**
   * 2026-07-28 reserves -32000..-32019 for legacy use ("new implementations SHOULD NOT use codes
   * from this sub-range"): a refusal of a 2026-07-28 request carries -32600 (-32603 for a failure
   * of the server); legacy requests keep -32000.
   */
  @Test
  void refusalsOfModernRequestsUseTheCodesTheirVersionDefines() {
    String body = TestClient.modern(1, "prompts/list", "");
    String[] modern = TestClient.modernHeaders("prompts/list", null);
    HttpResponse<String> origin =
        client.post(body, concat(modern, "Origin", "http://evil.example.com"));
    assertThat(origin.statusCode()).isEqualTo(403);
    assertThat(TestClient.errorCode(origin)).isEqualTo(-32600);
    HttpResponse<String> type = client.post(body, concat(modern, "Content-Type", "text/plain"));
    assertThat(type.statusCode()).isEqualTo(415);
    assertThat(TestClient.errorCode(type)).isEqualTo(-32600);
    HttpResponse<String> accept = client.post(body, concat(modern, "Accept", "text/html"));
    assertThat(accept.statusCode()).isEqualTo(406);
    assertThat(TestClient.errorCode(accept)).isEqualTo(-32600);
    HttpResponse<String> legacy = client.post(INIT, "Content-Type", "text/plain");
    assertThat(legacy.statusCode()).isEqualTo(415);
    assertThat(TestClient.errorCode(legacy)).isEqualTo(-32000);
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void bearerTokenIsRequiredWhenConfigured() throws Exception {
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport secured =
            HttpTransport.builder().server(s).bearerToken("s3cret").build().start()) {
      TestClient c = new TestClient(secured.uri());
      HttpResponse<String> none = c.post(INIT);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      assertThat(c.post(INIT, "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
      assertThat(c.post(INIT, "Authorization", "Basic czNjcmV0").statusCode()).isEqualTo(401);
      assertThat(c.post(INIT, "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aMalformedAuthorizationHeaderIs400WithAStaticTokenAsWithOAuth() throws Exception {
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport secured =
            HttpTransport.builder().server(s).bearerToken("s3cret").build().start()) {
      TestClient c = new TestClient(secured.uri());
      for (String malformed : List.of("Bearer a b", "Bearer", "Bearer a b c")) {
        HttpResponse<String> r = c.post(INIT, "Authorization", malformed);
        assertThat(r.statusCode()).as(malformed).isEqualTo(400);
        assertThat(r.headers().firstValue("WWW-Authenticate"))
            .hasValue("Bearer error=\"invalid_request\"");
        assertThat(r.body())
            .contains(
                "Bad Request: the Authorization header is malformed (one header: Bearer TOKEN)");
      }
      HttpResponse<String> twice =
          c.post(INIT, "Authorization", "Bearer s3cret", "Authorization", "Bearer s3cret");
      assertThat(twice.statusCode()).isEqualTo(400);
      assertThat(c.post(INIT, "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
    }
  }

  @Test
  void acceptMustAdmitJsonAndEventStream() {
    assertThat(client.post(INIT, "Accept", "text/html").statusCode()).isEqualTo(406);
    assertThat(client.post(INIT, "Accept", "application/json").statusCode()).isEqualTo(406);
    assertThat(client.post(INIT, "Accept", "*/*").statusCode()).isEqualTo(200);
    assertThat(client
            .post(INIT, "Accept", "application/json;q=0.9, text/event-stream")
            .statusCode())
        .isEqualTo(200);
  }

  @Test
  void bodyMustBeJson() {
    assertThat(client.post(INIT, "Content-Type", "text/plain").statusCode()).isEqualTo(415);
    assertThat(
            client.post(INIT, "Content-Type", "application/json; charset=utf-8").statusCode())
        .isEqualTo(200);
  }

  @Test
  void oversizedBodiesGet413() throws Exception {
    String big = request(1, "ping", "{\"pad\":\"" + "x".repeat(2000) + "\"}");
    assertThat(client.post(big).statusCode()).isEqualTo(413);
    // Without Content-Length (chunked), the limit applies while reading.
    HttpRequest chunked = HttpRequest.newBuilder(http.uri())
        .header("Accept", TestClient.ACCEPT_BOTH)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream(big.getBytes())))
        .timeout(Duration.ofSeconds(10))
        .build();
    assertThat(client.http.send(chunked, HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(413);
  }

  @Test
  void otherMethodsAndPathsAreRefused() throws Exception {
    HttpResponse<String> put = client.http.send(
        HttpRequest.newBuilder(http.uri())
            .PUT(HttpRequest.BodyPublishers.ofString(INIT))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(put.statusCode()).isEqualTo(405);
    assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
    HttpResponse<String> elsewhere = client.http.send(
        HttpRequest.newBuilder(http.uri().resolve("/other"))
            .POST(HttpRequest.BodyPublishers.ofString(INIT))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(elsewhere.statusCode()).isEqualTo(404);
  }

  @Test
  void malformedJsonIsAParseErrorWithoutStackTraces() {
    HttpResponse<String> r = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(TestClient.errorCode(r)).isEqualTo(-32700);
    assertThat(r.body())
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .doesNotContain("jackson");
  }
}
