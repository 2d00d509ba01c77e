package io.promptd.javasdk.endpoint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DualEraServlet#serving} in a real Tomcat on port 0: the official Java SDK's legacy client
 * (an {@code initialize} session) and its 2026-07-28 client at the same URL, each served by its
 * era's SDK server; and what the servlet answers itself — 413 for a body over the limit (declared
 * or streamed), 400 with a JSON-RPC error for a body that is not JSON or a message of neither era,
 * 403 on loopback for a foreign {@code Host} or {@code Origin}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DualEraServletTest {
  private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
  private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/list\"}";

  @TempDir
  Path dir;

  private TomcatEndpoint endpoint;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    endpoint = new TomcatEndpoint(DualEraServlet.serving(TestPrompts.catalog()), dir);
  }

  @AfterEach
  void stop() throws Exception {
    endpoint.close();
    http.close();
  }

  @Test
  void theLegacyClientGetsASessionAtTheUrl() {
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(endpoint.base())
            .endpoint("/mcp")
            .build())
        .requestTimeout(Duration.ofSeconds(30))
        .build();
    try {
      McpSchema.InitializeResult init = client.initialize();
      assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
      assertThat(init.serverInfo().name()).isEqualTo("promptd");
      assertThat(client.listPrompts().prompts())
          .extracting(McpSchema.Prompt::name)
          .containsExactlyInAnyOrder("greet", "p1", "p2", "p3", "p4"); // the SDK's own order
      McpSchema.GetPromptResult got =
          client.getPrompt(new McpSchema.GetPromptRequest("greet", Map.of("who", "Ada"), null));
      assertThat(((McpSchema.TextContent) got.messages().getFirst().content()).text())
          .isEqualTo("Hello, Ada");
      assertThatThrownBy(() -> client.getPrompt(
              new McpSchema.GetPromptRequest("greet", Map.of("who", "nobody"), null)))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
      assertThat(client
              .completeCompletion(McpSchema.CompleteRequest.builder(
                      McpSchema.PromptReference.builder("greet").build(),
                      new McpSchema.CompleteRequest.CompleteArgument("who", "A"))
                  .build())
              .completion()
              .values())
          .containsExactly("Ada", "Alan");
    } finally {
      client.closeGracefully();
    }
  }

  @Test
  void theModernClientIsServedStatelesslyAtTheSameUrl() {
    io.modelcontextprotocol.modern.client.McpSyncClient client =
        io.modelcontextprotocol.modern.client.McpClient.sync(
                HttpClientMcpTransport.builder(endpoint.url()).jsonMapper(JSON).build())
            .clientInfo(io.modelcontextprotocol.modern.McpSchema.Implementation.builder(
                    "dual-era-test", "1")
                .build())
            .jsonMapper(JSON)
            .build();
    assertThat(client.discover().supportedVersions()).contains("2026-07-28");
    assertThat(client.prompts().list().prompts())
        .extracting(io.modelcontextprotocol.modern.McpSchema.Prompt::name)
        .containsExactly("greet", "p1", "p2", "p3", "p4");
    io.modelcontextprotocol.modern.McpSchema.GetPromptResult got =
        client.prompt("greet").arguments(Map.of("who", "Grace")).get();
    assertThat(((io.modelcontextprotocol.modern.McpSchema.TextContent)
                got.messages().getFirst().content())
            .text())
        .isEqualTo("Hello, Grace");
    assertThatThrownBy(
            () -> client.prompt("greet").arguments(Map.of("who", "nobody")).get())
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602));
  }

  @Test
  void aBodyOverFourMebibytesIs413DeclaredOrStreamed() throws Exception {
    byte[] big = new byte[DualEraServlet.DEFAULT_MAX_REQUEST_BYTES + 1];
    java.util.Arrays.fill(big, (byte) ' ');
    HttpResponse<String> declared = post(HttpRequest.BodyPublishers.ofByteArray(big), Map.of());
    assertThat(declared.statusCode()).isEqualTo(413);
    assertError(declared, -32600, JsonNull.INSTANCE).contains("4194304 bytes");
    HttpResponse<String> streamed = post(
        HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)), Map.of());
    assertThat(streamed.statusCode()).isEqualTo(413);
    assertError(streamed, -32600, JsonNull.INSTANCE);
  }

  @Test
  void aBodyThatIsNotJsonIs400WithAParseError() throws Exception {
    HttpResponse<String> r = post(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":"), Map.of());
    assertThat(r.statusCode()).isEqualTo(400);
    assertError(r, -32700, JsonNull.INSTANCE).startsWith("the body is not JSON");
    HttpResponse<String> empty = post(HttpRequest.BodyPublishers.noBody(), Map.of());
    assertThat(empty.statusCode()).isEqualTo(400);
    assertError(empty, -32700, JsonNull.INSTANCE);
  }

  @Test
  void aMessageOfNeitherEraIs400NamingBoth() throws Exception {
    HttpResponse<String> r = post(HttpRequest.BodyPublishers.ofString(LIST), Map.of());
    assertThat(r.statusCode()).isEqualTo(400);
    assertError(r, -32600, JsonNumber.of(7)).contains("initialize", "2026-07-28");
  }

  @Test
  void aModernHeaderReachesTheModernTransportAndASessionTheLegacyOne() throws Exception {
    // The modern transport's own check: a request without Mcp-Method is refused there (-32001).
    HttpResponse<String> modern = post(
        HttpRequest.BodyPublishers.ofString(LIST), Map.of("MCP-Protocol-Version", "2026-07-28"));
    assertThat(modern.statusCode()).isEqualTo(400);
    assertThat(modern.body()).contains("Mcp-Method");
    // The legacy transport's: a session it never issued is unknown (404).
    HttpResponse<String> legacy = post(
        HttpRequest.BodyPublishers.ofString(LIST), Map.of("Mcp-Session-Id", "no-such-session"));
    assertThat(legacy.statusCode()).isEqualTo(404);
    HttpResponse<String> stream = http.send(
        HttpRequest.newBuilder(URI.create(endpoint.url()))
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", "no-such-session")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(stream.statusCode()).isEqualTo(404);
    // A 2026-07-28 client has no stream to open: the modern transport refuses the GET.
    HttpResponse<String> modernGet = http.send(
        HttpRequest.newBuilder(URI.create(endpoint.url()))
            .header("Accept", "text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(modernGet.statusCode()).isEqualTo(405);
  }

  @Test
  void onLoopbackAForeignHostOrOriginIs403() throws Exception {
    String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";
    assertThat(rawPost("evil.example", null, initialize))
        .startsWith("HTTP/1.1 403")
        .contains("the Host header names no loopback host")
        .doesNotContain("Exception");
    assertThat(rawPost("localhost", "http://evil.example", initialize))
        .startsWith("HTTP/1.1 403")
        .contains("the Origin header names no loopback host");
    // Loopback names pass on to the transport, which answers this bare initialize itself.
    assertThat(rawPost("localhost", "http://localhost:6274", initialize))
        .doesNotStartWith("HTTP/1.1 403");
    assertThat(rawPost("[::1]", null, initialize)).doesNotStartWith("HTTP/1.1 403");
  }

  /** A POST written by hand, so that its Host header is the test's; returns the whole response. */
  private String rawPost(String host, @Nullable String origin, String body) throws Exception {
    URI url = URI.create(endpoint.url());
    byte[] bytes = body.getBytes(UTF_8);
    try (Socket socket = new Socket("127.0.0.1", url.getPort())) {
      socket.setSoTimeout(30_000);
      String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\n"
          + (origin == null ? "" : "Origin: " + origin + "\r\n")
          + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
          + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(UTF_8));
      out.write(bytes);
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), UTF_8);
    }
  }

  private HttpResponse<String> post(BodyPublisher body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint.url()))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(body);
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(UTF_8));
  }

  /** The JSON-RPC error a refusal carries; returns an assertion on its message. */
  private static org.assertj.core.api.AbstractStringAssert<?> assertError(
      HttpResponse<String> response, int code, io.promptd.mcp.json.Json id) {
    assertThat(response.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/json");
    JsonObject body = (JsonObject) JsonCodec.parse(response.body());
    assertThat(body.string("jsonrpc")).contains("2.0");
    assertThat(body.get("id")).isEqualTo(id);
    JsonObject error = body.object("error").orElseThrow();
    assertThat(error.get("code")).isEqualTo(JsonNumber.of(code));
    String message = error.string("message").orElseThrow();
    assertThat(message).doesNotContain("Exception", "\tat ", "io.promptd", "java.");
    return assertThat(message);
  }
}
