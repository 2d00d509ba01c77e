package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import io.promptd.testing.Poll;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Signed session ids ({@code sessionSecret}) without a shared store: a deleted or expired id stays
 * dead after the sweeper has long passed it, and an id past the maximum age is dead however much it
 * is used (MCP transports: after termination the server MUST answer the id with 404).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SignedSessionLifetimeTest {
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final String PING = request(2, "ping", "{}");

  @Test
  void deletedAndExpiredIdsStayDeadPastTheSweep() throws Exception {
    Duration idle = Duration.ofSeconds(2); // the sweeper runs every 0.5 s of real time
    FrozenClock clock = new FrozenClock();
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .sessionSecret(SECRET)
            .sessionIdleTimeout(idle)
            .sessionClock(clock)
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      String deleted = client.initialize("2025-11-25");
      String expired = client.initialize("2025-11-25");
      assertThat(client.delete("Mcp-Session-Id", deleted).statusCode()).isEqualTo(204);
      assertThat(client.post(PING, "Mcp-Session-Id", deleted).statusCode()).isEqualTo(404);
      // Far past the idle timeout (what the store's entries were once kept for), within the max
      // age.
      clock.advance(idle.multipliedBy(10));
      long sweeps = http.sessionSweeps();
      // Two more sweeps: one that began before the clock moved may not have seen it.
      Poll.until(
          Duration.ofSeconds(20),
          Duration.ofMillis(10),
          () -> "only " + (http.sessionSweeps() - sweeps) + " sweeps",
          () -> http.sessionSweeps() >= sweeps + 2);
      assertThat(client.post(PING, "Mcp-Session-Id", deleted).statusCode()).isEqualTo(404);
      assertThat(client.post(PING, "Mcp-Session-Id", expired).statusCode()).isEqualTo(404);
      assertThat(client.delete("Mcp-Session-Id", deleted).statusCode()).isEqualTo(404);
      assertThat(http.sessionCount()).isZero();
    }
  }

  @Test
  void anIdPastTheMaxAgeIsDeadHoweverMuchItIsUsed() throws Exception {
    FrozenClock clock = new FrozenClock();
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .sessionSecret(SECRET)
            .sessionIdleTimeout(Duration.ofMinutes(1))
            .sessionMaxAge(Duration.ofMinutes(2))
            .sessionClock(clock)
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      String sid = client.initialize("2025-11-25");
      for (int i = 0; i < 2; i++) { // used every 50 s: never idle past the timeout
        clock.advance(Duration.ofSeconds(50));
        assertThat(client.post(PING, "Mcp-Session-Id", sid).statusCode()).isEqualTo(200);
      }
      clock.advance(Duration.ofSeconds(50)); // 150 s old
      assertThat(client.post(PING, "Mcp-Session-Id", sid).statusCode()).isEqualTo(404);
      assertThat(client.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(404);
      assertThat(client.initialize("2025-11-25")).isNotEqualTo(sid);
    }
  }
}
