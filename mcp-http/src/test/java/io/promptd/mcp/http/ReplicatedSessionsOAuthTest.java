package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sessions spread over replicas under OAuth still belong to their subject, and replicas with their
 * own session store (no shared one) still serve each other's sessions; the idle timeout holds on
 * every replica sharing a store.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedSessionsOAuthTest {
  private static final byte[] SECRET =
      "a session secret shared by both!".getBytes(StandardCharsets.US_ASCII);
  private static final URI PUBLIC = URI.create("http://prompts.example.test/mcp");
  private static final String INIT = OAuthHttpTest.INIT;

  private static MockOAuth2Server issuerServer;
  private static McpServer serverA;
  private static McpServer serverB;
  private static HttpTransport httpA;
  private static HttpTransport httpB;
  private static TestClient a;
  private static TestClient b;

  @BeforeAll
  static void start() throws Exception {
    issuerServer = new MockOAuth2Server();
    issuerServer.start();
    OAuthSettings oauth =
        OAuthSettings.issuer(URI.create(issuerServer.issuerUrl("team").toString()));
    serverA = ConformanceFixtures.server();
    serverB = ConformanceFixtures.server();
    // No shared store: each replica has its own; the signed id is enough to serve a session
    // anywhere.
    httpA = HttpTransport.builder()
        .server(serverA)
        .oauth(oauth)
        .publicUrl(PUBLIC)
        .sessionSecret(SECRET)
        .build()
        .start();
    httpB = HttpTransport.builder()
        .server(serverB)
        .oauth(oauth)
        .publicUrl(PUBLIC)
        .sessionSecret(SECRET)
        .build()
        .start();
    a = new TestClient(httpA.uri());
    b = new TestClient(httpB.uri());
    OAuthHttpTest.awaitReady(httpA);
    OAuthHttpTest.awaitReady(httpB);
  }

  @AfterAll
  static void stop() {
    httpA.close();
    httpB.close();
    serverA.close();
    serverB.close();
    issuerServer.shutdown();
  }

  private static String[] bearer(String subject, String... more) {
    String token =
        OAuthHttpTest.token(issuerServer, "team", subject, PUBLIC.toString(), "prompts", 3600);
    String[] out = new String[more.length + 2];
    out[0] = "Authorization";
    out[1] = "Bearer " + token;
    System.arraycopy(more, 0, out, 2, more.length);
    return out;
  }

  @Test
  void aSessionBelongsToItsSubjectOnEveryReplica() {
    HttpResponse<String> init = a.post(INIT, bearer("alice"));
    assertThat(init.statusCode()).isEqualTo(200);
    String sid = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(b.post(request(2, "prompts/list", "{}"), bearer("alice", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(200);
    // Another subject's request naming alice's session is answered as for an unknown session, on
    // both replicas.
    assertThat(b.post(request(3, "prompts/list", "{}"), bearer("bob", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(404);
    assertThat(a.post(request(3, "prompts/list", "{}"), bearer("bob", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(404);
    assertThat(b.delete(bearer("bob", "Mcp-Session-Id", sid)).statusCode()).isEqualTo(404);
    assertThat(b.get(bearer("bob", "Accept", "text/event-stream", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(404);
    assertThat(a.post(request(4, "ping", "{}"), bearer("alice", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(200);
  }

  @Test
  void anIdleSessionExpiresOnEveryReplicaSharingTheStore() throws Exception {
    SessionStore store = SessionStore.inMemory();
    FrozenClock clock =
        new FrozenClock(); // both replicas read the same time, as real ones with synced clocks do
    try (McpServer s1 = ConformanceFixtures.server();
        McpServer s2 = ConformanceFixtures.server();
        HttpTransport one = HttpTransport.builder()
            .server(s1)
            .sessionSecret(SECRET)
            .sessionStore(store)
            .sessionIdleTimeout(Duration.ofMillis(300))
            .sessionClock(clock)
            .build()
            .start();
        HttpTransport two = HttpTransport.builder()
            .server(s2)
            .sessionSecret(SECRET)
            .sessionStore(store)
            .sessionIdleTimeout(Duration.ofMillis(300))
            .sessionClock(clock)
            .build()
            .start()) {
      TestClient c1 = new TestClient(one.uri());
      TestClient c2 = new TestClient(two.uri());
      String sid = c1.initialize("2025-11-25");
      assertThat(c2.post(request(2, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
          .isEqualTo(200);
      clock.advance(
          Duration.ofSeconds(1)); // well past the idle timeout, with nothing using the session
      assertThat(c2.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
          .isEqualTo(404);
      assertThat(c1.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
          .isEqualTo(404);
    }
  }
}
