package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.json;
import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Legacy and modern clients on the same endpoint at the same time. */
class ConcurrentErasTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void bothErasAreServedConcurrentlyAndBothHearOfChanges() throws Exception {
    try (McpServer server = McpServer.builder()
            .prompts(ConformanceFixtures.prompts())
            .resources(new ConformanceFixtures.Resources())
            .changeCoalescing(Duration.ofMillis(1))
            .build();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      TestClient client = new TestClient(http.uri());
      String sid = client.initialize("2025-06-18");
      HttpResponse<InputStream> get = client.getStream("Mcp-Session-Id", sid);
      HttpResponse<InputStream> listen = client.postStream(
          modern(1, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"),
          modernHeaders("subscriptions/listen", null));
      try (TestClient.Events legacyEvents = new TestClient.Events(get.body());
          TestClient.Events modernEvents = new TestClient.Events(listen.body())) {
        modernEvents.next(WAIT); // acknowledged
        List<Future<String>> results = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
          for (int i = 0; i < 40; i++) {
            int n = i;
            results.add(
                clients.submit(() -> n % 2 == 0 ? legacyGet(client, n) : modernGet(client, n)));
          }
        }
        for (Future<String> f : results) {
          assertThat(f.get()).contains("testValue1").contains("testValue2");
        }
        server
            .prompts()
            .put(PromptDefinition.of(
                Prompt.of("both-eras", "added", List.of()),
                args -> List.of(PromptMessage.user("hi"))));
        assertThat(legacyEvents.next(WAIT).data()).contains("notifications/prompts/list_changed");
        assertThat(modernEvents.next(WAIT).data()).contains("notifications/prompts/list_changed");
      }
    }
  }

  private static String legacyGet(TestClient client, int n) {
    String sid = client.initialize("2025-11-25");
    HttpResponse<String> r = client.post(
        request(n, "prompts/get", args()),
        "Mcp-Session-Id",
        sid,
        "MCP-Protocol-Version",
        "2025-11-25");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(client.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(204);
    return TestClient.text(json(r).object("result").orElseThrow());
  }

  private static String modernGet(TestClient client, int n) {
    String params = args();
    HttpResponse<String> r = client.post(
        modern(n, "prompts/get", params.substring(1, params.length() - 1)),
        modernHeaders("prompts/get", "test_prompt_with_arguments"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    return TestClient.text(json(r).object("result").orElseThrow());
  }

  private static String args() {
    return "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"testValue1\",\"arg2\":\"testValue2\"}}";
  }
}
