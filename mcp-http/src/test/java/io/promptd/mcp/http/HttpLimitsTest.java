package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class HttpLimitsTest {
  @Test
  void eachWitherChangesOneLimitAndKeepsTheOthers() {
    HttpLimits d = HttpLimits.DEFAULTS;
    HttpLimits changed = d.withMaxBodyBytes(1024)
        .withMaxSessions(9)
        .withMaxSessionsPerCaller(3)
        .withMaxConnectionsPerAddress(7)
        .withMaxStreamsPerClient(5)
        .withRequestHeaderTimeout(Duration.ofSeconds(2))
        .withMaxConnections(11)
        .withMinRequestDataRate(13);
    assertThat(changed).isEqualTo(new HttpLimits(1024, 9, 3, 7, 5, Duration.ofSeconds(2), 11, 13));
    assertThat(d.withMaxSessions(9))
        .isEqualTo(
            new HttpLimits(4 * 1024 * 1024, 9, 200, 256, 32, Duration.ofSeconds(20), 10_000, 1024));
  }

  @Test
  void countsBelowOneAndNonPositiveTimeoutsAreRefused() {
    assertThatThrownBy(() -> HttpLimits.DEFAULTS.withMaxSessionsPerCaller(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HttpLimits.maxSessionsPerCaller: must be at least 1, not 0");
    assertThatThrownBy(() -> HttpLimits.DEFAULTS.withMaxConnectionsPerAddress(-1))
        .hasMessage("HttpLimits.maxConnectionsPerAddress: must be at least 1, not -1");
    assertThatThrownBy(() -> HttpLimits.DEFAULTS.withRequestHeaderTimeout(Duration.ZERO))
        .hasMessage("HttpLimits.requestHeaderTimeout: must be positive, not PT0S");
    assertThatThrownBy(() -> HttpLimits.DEFAULTS.withMaxConnections(0))
        .hasMessage("HttpLimits.maxConnections: must be at least 1, not 0");
    assertThatThrownBy(() -> HttpLimits.DEFAULTS.withMinRequestDataRate(0))
        .hasMessage("HttpLimits.minRequestDataRate: must be at least 1, not 0");
  }
}
