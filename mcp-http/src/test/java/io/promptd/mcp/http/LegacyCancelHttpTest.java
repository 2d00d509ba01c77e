package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A legacy request cancelled with {@code notifications/cancelled}: its POST still needs an answer
 * the transport allows ("MUST either return Content-Type: text/event-stream ... or Content-Type:
 * application/json"), and it owes no response: an event stream that ends without an event.
 */
class LegacyCancelHttpTest {
  @Test
  void aCancelledPostIsAnsweredWithAnEventStreamThatEndsWithoutAResponse() throws Exception {
    CountDownLatch rendering = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      server
          .prompts()
          .put(PromptDefinition.of(Prompt.of("slow", "waits until cancelled", List.of()), args -> {
            rendering.countDown();
            try {
              // Interrupted by the cancellation; the class's timeout bounds it otherwise
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              interrupted.countDown();
              Thread.currentThread().interrupt();
            }
            return List.of(PromptMessage.user("too late"));
          }));
      TestClient client = new TestClient(http.uri());
      String sid = client.initialize("2025-11-25");
      HttpRequest get = HttpRequest.newBuilder(http.uri())
          .header("Accept", TestClient.ACCEPT_BOTH)
          .header("Content-Type", "application/json")
          .header("Mcp-Session-Id", sid)
          .header("MCP-Protocol-Version", "2025-11-25")
          .POST(
              HttpRequest.BodyPublishers.ofString(request(5, "prompts/get", "{\"name\":\"slow\"}")))
          .build();
      CompletableFuture<HttpResponse<String>> call =
          client.http.sendAsync(get, HttpResponse.BodyHandlers.ofString());
      assertThat(rendering.await(10, TimeUnit.SECONDS)).isTrue();

      HttpResponse<String> cancel = client.post(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
              + "\"params\":{\"requestId\":5,\"reason\":\"the user gave up\"}}",
          "Mcp-Session-Id",
          sid);
      assertThat(cancel.statusCode()).isEqualTo(202);
      assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();

      HttpResponse<String> answer = call.get(10, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      assertThat(answer.body())
          .as("no response (nor any event) for a cancelled request")
          .isEmpty();
      // The session goes on.
      assertThat(client.post(request(6, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
          .isEqualTo(200);
    }
  }
}
