package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code promptd serve --session-secret FILE} and {@code PROMPTD_SESSION_SECRET}. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsSessionSecretTest {
  private static final String SECRET = "s3cr3t-k3y-that-is-long-enough-1234";

  @TempDir
  Path dir;

  @Test
  void theFileHoldsTheSecretAndItsTextIsNeverShown() throws Exception {
    Path file = Files.writeString(dir.resolve("secret"), SECRET + "\n");
    ServeOptions o =
        ServeOptions.parse(List.of("--http", "--session-secret", file.toString(), dir.toString()));
    assertThat(o.sessionSecret()).isNotNull();
    assertThat(o.sessionSecret().bytes()).isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
    assertThat(o.toString()).doesNotContain(SECRET);
  }

  @Test
  void theEnvironmentVariableHoldsTheSecretItself() {
    assertThat(ServeOptions.sessionSecret(null, "  " + SECRET + "\n").bytes())
        .isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
    assertThat(ServeOptions.sessionSecret(null, null)).isNull();
    assertThat(ServeOptions.sessionSecret(null, " ")).isNull();
  }

  @Test
  void aMissingFileOrAShortSecretIsAUsageErrorThatDoesNotShowIt() throws Exception {
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--http", "--session-secret", dir.resolve("none").toString(), dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("cannot read");
    Path file = Files.writeString(dir.resolve("short"), "tooShort");
    assertThatThrownBy(() -> ServeOptions.sessionSecret(file, null))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("at least 16")
        .hasMessageNotContaining("tooShort");
    assertThatThrownBy(() -> ServeOptions.sessionSecret(null, "tooShort"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("PROMPTD_SESSION_SECRET")
        .hasMessageNotContaining("tooShort");
    Path good = Files.writeString(dir.resolve("good"), SECRET);
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--session-secret", good.toString(), dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("needs --http");
  }
}
