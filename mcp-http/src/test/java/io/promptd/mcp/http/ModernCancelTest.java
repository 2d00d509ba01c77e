package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.testing.Poll;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A modern request that runs long moves to an SSE stream, so a client that closes its connection
 * cancels it too, as 2026-07-28 asks.
 */
class ModernCancelTest {
  @Test
  void closingTheConnectionInterruptsTheWork() throws Exception {
    CountDownLatch rendering = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .keepAliveInterval(Duration.ofMillis(100))
            .streamAfter(Duration.ofMillis(100))
            .build()
            .start()) {
      server
          .prompts()
          .put(PromptDefinition.of(Prompt.of("slow", "never finishes", List.of()), args -> {
            rendering.countDown();
            try {
              Thread.sleep(20_000);
            } catch (InterruptedException e) {
              interrupted.countDown();
              Thread.currentThread().interrupt();
            }
            return List.of(PromptMessage.user("too late"));
          }));
      TestClient client = new TestClient(http.uri());
      HttpRequest.Builder b = HttpRequest.newBuilder(http.uri())
          .header("Accept", TestClient.ACCEPT_BOTH)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(
              TestClient.modern(1, "prompts/get", "\"name\":\"slow\"")));
      for (String[] h = TestClient.modernHeaders("prompts/get", "slow");
          h.length > 0;
          h = new String[0]) {
        for (int i = 0; i < h.length; i += 2) {
          b.header(h[i], h[i + 1]);
        }
      }
      CompletableFuture<HttpResponse<String>> call =
          client.http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(rendering.await(10, TimeUnit.SECONDS)).isTrue();
      call.cancel(true);
      assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
      Poll.until(
          Duration.ofSeconds(5),
          Duration.ofMillis(20),
          () -> "the request counted as cancelled",
          () -> http.modernCancelled() != 0);
      assertThat(http.modernCancelled()).isEqualTo(1);
    }
  }

  @Test
  void aSlowRequestIsAnsweredAsTheLastEventOfItsStream() throws Exception {
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .keepAliveInterval(Duration.ofMillis(100))
            .streamAfter(Duration.ofMillis(100))
            .build()
            .start()) {
      CountDownLatch release = new CountDownLatch(1);
      server
          .prompts()
          .put(new PromptDefinition(
              Prompt.of("slowish", "answers when the test says", List.of()),
              args -> {
                if (!release.await(30, TimeUnit.SECONDS)) {
                  throw new IllegalStateException("never released");
                }
                return GetPromptResult.of(null, List.of(PromptMessage.user("done")));
              },
              null));
      TestClient client = new TestClient(http.uri());
      // The answer's headers arrive while the renderer still waits: the request outlived
      // streamAfter, so it streams.
      HttpResponse<InputStream> r = client.postStream(
          TestClient.modern(7, "prompts/get", "\"name\":\"slowish\""),
          TestClient.modernHeaders("prompts/get", "slowish"));
      release.countDown();
      assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      try (TestClient.Events events = new TestClient.Events(r.body())) {
        String last = events.next(Duration.ofSeconds(5)).data();
        Schemas.checkResponse(TestClient.MODERN, "prompts/get", last);
        assertThat(last).startsWith("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":").contains("done");
        events.awaitEnd(Duration.ofSeconds(5));
      }
    }
  }
}
