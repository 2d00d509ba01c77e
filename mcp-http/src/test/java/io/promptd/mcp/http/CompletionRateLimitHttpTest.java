package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.errorCode;
import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The completion rate limit over HTTP: a 2026-07-28 client without a token is known by its address,
 * so its completions share one bucket across connections; a legacy session has its own. The rate is
 * so low (one token per 1,000 s) that no token comes back during the test: the outcome does not
 * depend on timing.
 */
class CompletionRateLimitHttpTest {
  private static final String COMPLETE =
      "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
          + "\"argument\":{\"name\":\"arg1\",\"value\":\"\"}";

  @Test
  void aClientPastItsBurstGetsAClearErrorAndASessionHasItsOwnBucket() throws Exception {
    try (McpServer server = McpServer.builder()
            .prompts(ConformanceFixtures.prompts())
            .completionRateLimit(0.001, 2)
            .build();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      TestClient client = new TestClient(http.uri());
      for (int i = 1; i <= 2; i++) {
        HttpResponse<String> ok = client.post(
            modern(i, "completion/complete", COMPLETE), modernHeaders("completion/complete", null));
        assertThat(ok.body()).contains("\"completion\"");
      }
      // A new HttpClient: another connection from the same address, the same client.
      HttpResponse<String> refused = new TestClient(http.uri())
          .post(
              modern(3, "completion/complete", COMPLETE),
              modernHeaders("completion/complete", null));
      assertThat(errorCode(refused)).isEqualTo(-31429);
      assertThat(refused.body())
          .contains(
              "completion rate limit exceeded: 0.001 per second; retry later", "\"retryAfterMs\":");
      Schemas.assertValid(TestClient.MODERN, "JSONRPCErrorResponse", refused.body());

      String session = client.initialize("2025-06-18");
      HttpResponse<String> legacy = client.post(
          TestClient.request(4, "completion/complete", "{" + COMPLETE + "}"),
          "Mcp-Session-Id",
          session,
          "MCP-Protocol-Version",
          "2025-06-18");
      assertThat(legacy.body()).contains("\"completion\"");
    }
  }

  @Test
  void clientsAtOtherAddressesHaveTheirOwnBuckets() throws Exception {
    try (McpServer server = McpServer.builder()
            .prompts(ConformanceFixtures.prompts())
            .completionRateLimit(0.001, 1)
            .build();
        HttpTransport http =
            HttpTransport.builder().server(server).trustProxy(true).build().start()) {
      TestClient client = new TestClient(http.uri());
      assertThat(from(client, "203.0.113.1", 1).body()).contains("\"completion\"");
      assertThat(errorCode(from(client, "203.0.113.1", 2))).isEqualTo(-31429);
      assertThat(from(client, "203.0.113.2", 3).body())
          .as("another client address")
          .contains("\"completion\"");
    }
  }

  private static HttpResponse<String> from(TestClient client, String address, int id) {
    return client.post(
        modern(id, "completion/complete", COMPLETE),
        "MCP-Protocol-Version",
        TestClient.MODERN,
        "Mcp-Method",
        "completion/complete",
        "X-Forwarded-For",
        address);
  }
}
