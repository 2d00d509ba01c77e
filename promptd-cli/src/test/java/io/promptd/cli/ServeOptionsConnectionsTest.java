package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --trust-proxy [ADDR,...]}, {@code --max-connections-per-address},
 * {@code --max-streams-per-client} and {@code --header-timeout}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsConnectionsTest {
  @TempDir
  Path dir;

  private ConnectionOptions parse(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(dir.toString());
    return ServeOptions.parse(all).connections();
  }

  @Test
  void byDefaultNoProxyIsTrustedAndTheLimitsAreSane() {
    assertThat(parse()).isEqualTo(new ConnectionOptions(List.of(), 256, 32, 20, 10_000, 1024));
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
        .isEqualTo(new ConnectionOptions(List.of(), 8, 4, 5, 10_000, 1024));
    assertThatThrownBy(() -> parse("--max-streams-per-client", "0"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-streams-per-client must be at least 1");
  }

  @Test
  void aPublicUrlBeyondThisMachineWithoutAuthenticationIsWarnedOf() {
    String url = "https://prompts.example.com/mcp";
    assertThat(serve("--http", "--public-url", url).warnings())
        .containsExactly("--public-url " + url + " has requests for prompts.example.com accepted"
            + " without authentication: whatever forwards them here (a proxy, a tunnel) serves"
            + " them to anyone who reaches it; require --token or --oauth-issuer");
    assertThat(serve("--http", "--public-url", url, "--token", "s3cret").warnings())
        .isEmpty();
    assertThat(serve("--http", "--public-url", "http://localhost:8080/mcp").warnings())
        .isEmpty();
    assertThat(serve("--http").warnings()).isEmpty();
  }

  @Test
  void theBodyRateAndTheConnectionLimitAreSetByTheirFlags() {
    assertThat(serve("--http").connections().maxConnections()).isEqualTo(10_000);
    assertThat(serve("--http").connections().minBodyRate()).isEqualTo(1024);
    ServeOptions set = serve("--http", "--max-connections", "50", "--min-body-rate", "64");
    assertThat(set.connections().maxConnections()).isEqualTo(50);
    assertThat(set.connections().minBodyRate()).isEqualTo(64);
    assertThatThrownBy(() -> parse("--max-connections", "0"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-connections must be at least 1");
  }

  private ServeOptions serve(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(dir.toString());
    return ServeOptions.parse(all);
  }

  @Test
  void theUsageTextListsTheFlags() {
    assertThat(Main.USAGE_TEXT)
        .contains(
            "--trust-proxy [ADDR,...]",
            "--max-connections-per-address N",
            "--max-streams-per-client N",
            "--header-timeout S",
            "--max-connections N",
            "--min-body-rate B");
  }
}
