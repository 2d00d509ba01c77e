package io.promptd.javasdk.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.javasdk.modern.SdkModernPrompts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DualEraServlet#of} over two SDK servers built by hand, with a limit of its own: both SDK
 * clients are served at the one URL, a body over the limit is 413, and a limit out of range is
 * refused when the servlet is made.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JoinedTransportsTest {
  private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

  @TempDir
  Path dir;

  @Test
  void twoHandBuiltServersShareTheUrlUnderTheGivenLimit() throws Exception {
    HttpServletStreamableServerTransportProvider legacyTransport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(JSON)
            .mcpEndpoint("/mcp")
            .build();
    SdkPrompts prompts = SdkPrompts.of(TestPrompts.catalog());
    McpSyncServer legacy = io.modelcontextprotocol.server.McpServer.sync(legacyTransport)
        .serverInfo("hand-built", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().prompts(true).build())
        .prompts(prompts.syncPrompts())
        .build();
    McpServer modern = McpServer.builder()
        .serverInfo(
            io.modelcontextprotocol.modern.McpSchema.Implementation.builder("hand-built", "1")
                .build())
        .jsonMapper(JSON)
        .feature(SdkModernPrompts.of(TestPrompts.catalog()).feature(JSON))
        .build();
    HttpServletMcpTransport modernTransport = HttpServletMcpTransport.builder(modern)
        .jsonMapper(JSON)
        .endpoint("/mcp")
        .build();
    try (TomcatEndpoint endpoint =
            new TomcatEndpoint(DualEraServlet.of(legacyTransport, modernTransport, 2048), dir);
        HttpClient http = HttpClient.newHttpClient()) {
      McpSyncClient client = McpClient.sync(
              HttpClientStreamableHttpTransport.builder(endpoint.base())
                  .endpoint("/mcp")
                  .build())
          .requestTimeout(Duration.ofSeconds(30))
          .build();
      try {
        assertThat(client.initialize().serverInfo().name()).isEqualTo("hand-built");
        assertThat(client.listPrompts().prompts()).hasSize(5);
      } finally {
        client.closeGracefully();
      }
      io.modelcontextprotocol.modern.client.McpSyncClient modernClient =
          io.modelcontextprotocol.modern.client.McpClient.sync(
                  io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport.builder(
                          endpoint.url())
                      .jsonMapper(JSON)
                      .build())
              .clientInfo(io.modelcontextprotocol.modern.McpSchema.Implementation.builder(
                      "joined-test", "1")
                  .build())
              .jsonMapper(JSON)
              .build();
      assertThat(modernClient.prompts().list().prompts()).hasSize(5);

      String padded = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"x\":\""
          + "y".repeat(2048) + "\"}}";
      HttpResponse<String> tooLarge = http.send(
          HttpRequest.newBuilder(URI.create(endpoint.url()))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(padded))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(tooLarge.statusCode()).isEqualTo(413);
      assertThat(tooLarge.body()).contains("larger than 2048 bytes");
    } finally {
      legacy.closeGracefully();
    }
  }

  @Test
  void aLimitOutOfRangeIsRefusedNamingIt() {
    HttpServletStreamableServerTransportProvider legacyTransport =
        HttpServletStreamableServerTransportProvider.builder().jsonMapper(JSON).build();
    McpServer modern = McpServer.builder()
        .serverInfo(io.modelcontextprotocol.modern.McpSchema.Implementation.builder("x", "1")
            .build())
        .jsonMapper(JSON)
        .features(List.of())
        .build();
    try {
      HttpServletMcpTransport modernTransport =
          HttpServletMcpTransport.builder(modern).jsonMapper(JSON).build();
      assertThatThrownBy(() -> DualEraServlet.of(legacyTransport, modernTransport, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("maxRequestBytes")
          .hasMessageContaining("got 0");
    } finally {
      modern.closeGracefully();
    }
  }
}
