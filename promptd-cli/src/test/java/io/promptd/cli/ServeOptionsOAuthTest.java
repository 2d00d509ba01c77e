package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The OAuth options of {@code promptd serve}. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsOAuthTest {
  @TempDir
  Path dir;

  @Test
  void theOAuthFlagsBecomeSettings() {
    ServeOptions o = ServeOptions.parse(List.of(
        "--http",
        "--oauth-issuer",
        "https://login.example.com/realms/team",
        "--oauth-audience",
        "https://prompts.example.com/mcp",
        "--oauth-scopes",
        "prompts, admin",
        dir.toString()));
    assertThat(o.oauth()).isNotNull();
    assertThat(o.oauth().issuer()).isEqualTo(URI.create("https://login.example.com/realms/team"));
    assertThat(o.oauth().audience()).isEqualTo(URI.create("https://prompts.example.com/mcp"));
    assertThat(o.oauth().scopes()).isEqualTo(Set.of("prompts", "admin"));
    assertThat(o.token()).isNull();
  }

  @Test
  void withoutAnIssuerThereIsNoOAuth() {
    assertThat(ServeOptions.parse(List.of("--http", dir.toString())).oauth()).isNull();
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--oauth-scopes", "a", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("need --oauth-issuer");
  }

  @Test
  void badValuesAreUsageErrors() {
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--oauth-issuer", "not a url", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--oauth-issuer");
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--oauth-issuer", "ftp://x/", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("http(s)");
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--token", "t", "--oauth-issuer", "https://x/", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("exclude each other");
  }
}
