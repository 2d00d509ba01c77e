package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A further MCP endpoint on the same port ({@link HttpTransportBuilder#endpoint}): it serves its
 * own server in both eras, and a legacy session opened at one path is unknown at the other, with
 * and without a session secret.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FurtherEndpointHttpTest {
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  @Test
  void eachPathServesItsOwnServerAndItsOwnSessions() throws Exception {
    for (boolean signed : new boolean[] {false, true}) {
      try (McpServer main = server("main_prompt");
          McpServer staging = server("staging_prompt");
          HttpTransport http = transport(main, staging, signed)) {
        TestClient atMain = new TestClient(http.uri());
        TestClient atStaging = new TestClient(http.uri().resolve("/labels/staging/mcp"));
        for (String[] pair :
            new String[][] {{"main_prompt", "staging_prompt"}, {"staging_prompt", "main_prompt"}}) {
          TestClient own = pair[0].equals("main_prompt") ? atMain : atStaging;
          TestClient other = own == atMain ? atStaging : atMain;
          String sid = own.initialize("2025-06-18");
          String listed =
              own.post(request(2, "prompts/list", "{}"), "Mcp-Session-Id", sid).body();
          assertThat(listed).contains(pair[0]).doesNotContain(pair[1]);
          assertThat(other
                  .post(request(3, "prompts/list", "{}"), "Mcp-Session-Id", sid)
                  .statusCode())
              .as("a session of the other path, signed " + signed)
              .isEqualTo(404);
          assertThat(own.post(modern(4, "prompts/list", ""), modernHeaders("prompts/list", null))
                  .body())
              .contains(pair[0])
              .doesNotContain(pair[1]);
        }
        assertThat(http.sessionCount()).isEqualTo(2);
      }
    }
  }

  @Test
  void aPathTakenOrTheTransportsOwnIsRefused() {
    try (McpServer main = server("main_prompt")) {
      assertThatThrownBy(() -> HttpTransport.builder().endpoint("/healthz", main, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("/healthz is served by the transport");
      assertThatThrownBy(
              () -> HttpTransport.builder().endpoint("/x", main, null).endpoint("/x", main, null))
          .hasMessageContaining("/x is an endpoint already");
      assertThatThrownBy(() ->
              HttpTransport.builder().server(main).endpoint("/mcp", main, null).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("the endpoint /mcp is also the main MCP path");
    }
  }

  private static McpServer server(String prompt) {
    return McpServer.builder()
        .prompts(PromptCatalog.of(List.of(PromptDefinition.of(
            Prompt.of(prompt, "served here", List.of()),
            args -> List.of(PromptMessage.user(prompt))))))
        .build();
  }

  private static HttpTransport transport(McpServer main, McpServer staging, boolean signed)
      throws Exception {
    HttpTransportBuilder b =
        HttpTransport.builder().server(main).endpoint("/labels/staging/mcp", staging, null);
    if (signed) {
      b.sessionSecret(SECRET).sessionStore(SessionStore.inMemory());
    }
    return b.build().start();
  }
}
