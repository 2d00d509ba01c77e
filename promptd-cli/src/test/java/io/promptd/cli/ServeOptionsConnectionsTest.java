package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --trust-proxy [ADDR,...]}, {@code --max-connections-per-address}, {@code
 * --max-streams-per-client} and {@code --header-timeout}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsConnectionsTest {
  @TempDir
  Path dir;

  private ConnectionOptions parse(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.add(dir.toString());
    return ServeOptions.parse(all).connections();
  }

  @Test
  void byDefaultNoProxyIsTrustedAndTheLimitsAreSane() {
    assertThat(parse()).isEqualTo(new ConnectionOptions(List.of(), 256, 32, 20));
  }

  @Test
  void aBareTrustProxyMeansAProxyOnThisMachineAndTheFolderStaysAFolder() {
    ServeOptions options = ServeOptions.parse(List.of("--trust-proxy", dir.toString()));
    assertThat(options.connections().trustedProxies()).containsExactly("127.0.0.0/8", "::1");
    assertThat(options.directories()).containsExactly(dir.toAbsolutePath().normalize());
  }

  @Test
  void trustProxyTakesAddressesAndRanges() {
    assertThat(parse("--trust-proxy", "10.0.0.5,192.168.0.0/16, ::1").trustedProxies())
        .containsExactly("10.0.0.5", "192.168.0.0/16", "::1");
  }

  @Test
  void aBadProxyIsAUsageError() {
    assertThatThrownBy(() -> parse("--trust-proxy", "10.0.0.0/40"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--trust-proxy: '10.0.0.0/40' has a prefix longer than 32");
    assertThatThrownBy(() -> parse("--trust-proxy", "10.0.0.300"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--trust-proxy needs IP addresses or CIDR ranges");
  }

  @Test
  void theLimitsAreSetByTheirFlags() {
    assertThat(parse(
            "--max-connections-per-address", "8",
            "--max-streams-per-client", "4",
            "--header-timeout", "5"))
        .isEqualTo(new ConnectionOptions(List.of(), 8, 4, 5));
    assertThatThrownBy(() -> parse("--max-streams-per-client", "0"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-streams-per-client must be at least 1");
  }

  @Test
  void theUsageTextListsTheFlags() {
    assertThat(Main.USAGE_TEXT)
        .contains(
            "--trust-proxy [ADDR,...]",
            "--max-connections-per-address N",
            "--max-streams-per-client N",
            "--header-timeout S");
  }
}
