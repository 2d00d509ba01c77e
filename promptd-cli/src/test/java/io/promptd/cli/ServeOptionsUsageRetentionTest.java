package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --store URL --usage-retention 30d}: how long the store keeps usage rows, 90
 * days unless told.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsUsageRetentionTest {
  private static final String STORE = "postgresql://localhost/prompts";

  @TempDir
  Path dir;

  @Test
  void ninetyDaysUnlessGivenInDaysOrHours() {
    assertThat(ServeOptions.parse(List.of("--store", STORE)).usageRetention())
        .isEqualTo(Duration.ofDays(90));
    assertThat(ServeOptions.parse(List.of("--store", STORE, "--usage-retention", "30d"))
            .usageRetention())
        .isEqualTo(Duration.ofDays(30));
    assertThat(ServeOptions.parse(List.of("--store", STORE, "--usage-retention", "36h"))
            .usageRetention())
        .isEqualTo(Duration.ofHours(36));
  }

  @Test
  void aMalformedRetentionOrOneWithoutAStoreIsRefused() {
    for (String bad : List.of("0d", "90", "1w", "-3d", "9999999d")) {
      assertThatThrownBy(
              () -> ServeOptions.parse(List.of("--store", STORE, "--usage-retention", bad)))
          .isInstanceOf(UsageException.class)
          .hasMessage(
              "--usage-retention needs a number of days or hours (90d, 36h), not '" + bad + "'");
    }
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--usage-retention", "30d", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--usage-retention needs --store: only the store keeps usage rows");
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--usage-retention 90d  with --store");
  }
}
