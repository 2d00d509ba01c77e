package io.promptd.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP channel's fallback to the 2024-11-05 HTTP+SSE transport, against a real promptd HTTP
 * server: given the {@code /sse} URL, the Streamable HTTP POSTs are refused (405) and the client
 * opens the stream, as the spec's backwards-compatibility section says.
 */
@Timeout(60)
class SseFallbackTest {
  private PromptCatalog catalog;
  private McpServer server;
  private HttpTransport http;

  @BeforeEach
  void start() throws IOException {
    catalog = PromptCatalog.create();
    for (int i = 0; i < 5; i++) {
      catalog.put(PromptDefinition.of(
          Prompt.of("p" + i, "prompt " + i, List.of()),
          args -> List.of(PromptMessage.user("plain"))));
    }
    catalog.put(PromptDefinition.of(
        Prompt.of("greet", "greets", List.of(PromptArgument.required("who", "whom"))),
        args -> List.of(PromptMessage.user("Hello, " + args.get("who")))));
    server = McpServer.builder().prompts(catalog).pageSize(2).build();
    http = HttpTransport.builder()
        .server(server)
        .keepAliveInterval(Duration.ofMillis(200))
        .build()
        .start();
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  private McpClient connect(String path) throws IOException {
    return McpClient.connectHttp(
        URI.create("http://127.0.0.1:" + http.port() + path),
        ClientOptions.defaults().withTimeout(Duration.ofSeconds(10)));
  }

  @Test
  void anOldTransportUrlIsServedOverHttpSse() throws Exception {
    try (McpClient client = connect("/sse")) {
      assertThat(client.transport()).isEqualTo("sse");
      assertThat(client.modern()).isFalse();
      assertThat(client.protocolVersion()).isEqualTo(McpClient.LEGACY_VERSION);
      assertThat(http.sessionCount()).isEqualTo(1);
      assertThat(client.listPrompts()).extracting(Prompt::name).hasSize(6).contains("greet", "p4");
      assertThat(client
              .getPrompt("greet", Map.of("who", "Ada"))
              .messages()
              .getFirst()
              .content())
          .isInstanceOfSatisfying(
              TextContent.class, t -> assertThat(t.text()).isEqualTo("Hello, Ada"));
      assertThatThrownBy(() -> client.getPrompt("nope", Map.of()))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));

      CountDownLatch changed = new CountDownLatch(1);
      try (AutoCloseable watch = client.watchPrompts(changed::countDown)) {
        catalog.put(PromptDefinition.of(
            Prompt.of("late", "added", List.of()), args -> List.of(PromptMessage.user("late"))));
        assertThat(changed.await(10, TimeUnit.SECONDS))
            .as("list_changed on the SSE stream")
            .isTrue();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (http.sessionCount() > 0 && System.nanoTime() < deadline) {
      // Polled: the server notices the closed stream at its next write (a keep-alive, every 200 ms)
      Thread.sleep(20);
    }
    assertThat(http.sessionCount())
        .as("closing the client closed the stream, which ended the session")
        .isZero();
  }

  @Test
  void theStreamableEndpointIsStillPreferred() throws Exception {
    try (McpClient client = connect("/mcp")) {
      assertThat(client.transport()).isEqualTo("http");
      assertThat(client.modern()).isTrue();
    }
  }

  @Test
  void aUrlWithNeitherTransportFailsClearly() {
    assertThatThrownBy(() -> connect("/nothing-here"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("neither Streamable HTTP nor HTTP+SSE")
        .hasMessageContaining("HTTP 404");
  }

  @Test
  void anEndpointOnAnotherOriginIsRefused() throws IOException {
    URI stream = URI.create("http://127.0.0.1:8080/sse");
    assertThat(SseLink.resolve(stream, "/messages?sessionId=x"))
        .isEqualTo(URI.create("http://127.0.0.1:8080/messages?sessionId=x"));
    assertThat(SseLink.resolve(stream, "messages?sessionId=x"))
        .isEqualTo(URI.create("http://127.0.0.1:8080/messages?sessionId=x"));
    assertThatThrownBy(() -> SseLink.resolve(stream, "http://evil.example.com/messages"))
        .hasMessageContaining("another origin");
    assertThatThrownBy(() -> SseLink.resolve(stream, "http://127.0.0.1:9090/messages"))
        .hasMessageContaining("another origin");
    assertThatThrownBy(() -> SseLink.resolve(stream, "::not a url"))
        .hasMessageContaining("names no URL");
  }
}
