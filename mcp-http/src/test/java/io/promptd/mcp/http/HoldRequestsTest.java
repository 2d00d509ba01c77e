package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server whose catalog loads in the background opens its port at once and holds the MCP requests
 * that come before the load ({@link HttpTransportBuilder#holdRequestsUntil}): they are answered
 * from the loaded catalog, never from the empty one; probes are not held; past the hold's limit
 * nothing waits any more.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HoldRequestsTest {
  private static final String LIST = modern(1, "prompts/list", "");

  @Test
  void aRequestBeforeTheLoadIsAnsweredFromTheLoadedCatalogAndProbesAreNotHeld() throws Exception {
    Load loaded = new Load();
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .readinessCheck("loaded", loaded::isDone)
            .holdRequestsUntil(loaded, Duration.ofSeconds(50))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      CompletableFuture<HttpResponse<String>> early = CompletableFuture.supplyAsync(
          () -> client.post(LIST, modernHeaders("prompts/list", null)));
      // Probes answer while the request waits: readiness says the load is not done.
      assertThat(probe(http, "/healthz").statusCode()).isEqualTo(200);
      assertThat(probe(http, "/readyz").statusCode()).isEqualTo(503);
      assertThat(loaded.awaited.await(30, TimeUnit.SECONDS))
          .as("the early request waits for the load")
          .isTrue();
      assertThat(early)
          .isNotDone(); // were it not held, it would have been answered from the empty catalog
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of("loaded", "from the load", List.of()),
              args -> List.of(PromptMessage.user("hi"))));
      loaded.complete(null);
      HttpResponse<String> answer = early.get(30, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).contains("\"name\":\"loaded\"");
      assertThat(probe(http, "/readyz").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void pastTheLimitRequestsAreServedAsThingsAre() throws Exception {
    CompletableFuture<Void> never = new CompletableFuture<>();
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .holdRequestsUntil(never, Duration.ofMillis(300))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      HttpResponse<String> answer = client.post(LIST, modernHeaders("prompts/list", null));
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).contains("\"prompts\":[]");
    }
  }

  /** The load's future; counts down when a held request starts waiting for it. */
  private static final class Load extends CompletableFuture<Void> {
    final CountDownLatch awaited = new CountDownLatch(1);

    @Override
    public Void get(long timeout, TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
      awaited.countDown();
      return super.get(timeout, unit);
    }
  }

  private static HttpResponse<String> probe(HttpTransport http, String path) throws Exception {
    try (HttpClient h = HttpClient.newHttpClient()) {
      return h.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }
}
