package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP+SSE transport behind OAuth: the same 401/403 challenges as {@code /mcp}, and sessions
 * bound to a subject.
 */
@Timeout(120)
class SseTransportOAuthTest {
  private static MockOAuth2Server issuerServer;
  private static McpServer server;
  private static HttpTransport http;

  @BeforeAll
  static void start() throws Exception {
    issuerServer = new MockOAuth2Server();
    issuerServer.start();
    server = ConformanceFixtures.server();
    http = HttpTransport.builder()
        .server(server)
        .oauth(OAuthSettings.issuer(URI.create(issuerServer.issuerUrl("team").toString()))
            .withScopes(List.of("prompts")))
        .build()
        .start();
    OAuthHttpTest.awaitReady(http);
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
    issuerServer.shutdown();
  }

  private static String bearer(String subject, String scope) {
    return "Bearer "
        + OAuthHttpTest.token(issuerServer, "team", subject, http.uri().toString(), scope, 3600);
  }

  @Test
  void theStreamIsChallengedLikeTheMcpEndpoint() throws Exception {
    try (SseTransportTest.Stream none = SseTransportTest.open(http)) {
      assertThat(none.response.statusCode()).isEqualTo(401);
      assertThat(none.response.headers().firstValue("WWW-Authenticate").orElseThrow())
          .contains("resource_metadata=\"" + http.resourceMetadataUri().orElseThrow() + "\"")
          .contains("scope=\"prompts\"");
    }
    try (SseTransportTest.Stream narrow =
        SseTransportTest.open(http, "Authorization", bearer("alice", "other"))) {
      assertThat(narrow.response.statusCode()).isEqualTo(403);
      assertThat(narrow.response.headers().firstValue("WWW-Authenticate").orElseThrow())
          .contains("error=\"insufficient_scope\"");
    }
  }

  @Test
  void aSessionServesOnlyTheSubjectThatOpenedIt() throws Exception {
    String alice = bearer("alice", "prompts");
    try (SseTransportTest.Stream s = SseTransportTest.open(http, "Authorization", alice)) {
      assertThat(s.response.statusCode()).isEqualTo(200);
      URI messages = SseTransportTest.initialize(http, s, "Authorization", alice);

      HttpResponse<String> anonymous = SseTransportTest.post(messages, request(2, "ping", "{}"));
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate")).isPresent();
      HttpResponse<String> bob = SseTransportTest.post(
          messages, request(2, "ping", "{}"), "Authorization", bearer("bob", "prompts"));
      assertThat(bob.statusCode())
          .as("another subject's session is unknown to it")
          .isEqualTo(404);
      assertThat(bob.body()).contains("unknown session");

      assertThat(SseTransportTest.post(messages, request(3, "ping", "{}"), "Authorization", alice)
              .statusCode())
          .isEqualTo(202);
      assertThat(s.message().get("id").toString()).isEqualTo("3");
    }
  }
}
