package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code promptd serve --completion-rate N}: the per-client completion rate limit. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsCompletionRateTest {
  @TempDir
  Path dir;

  @Test
  void theDefaultIsTwentyAndTheFlagSetsItOrTurnsItOff() {
    assertThat(ServeOptions.parse(List.of(dir.toString())).completionRate()).isEqualTo(20);
    assertThat(ServeOptions.parse(List.of("--completion-rate", "5", dir.toString()))
            .completionRate())
        .isEqualTo(5);
    assertThat(ServeOptions.parse(List.of("--completion-rate", "0", dir.toString()))
            .completionRate())
        .isZero();
  }

  @Test
  void aNegativeOrNonNumericRateIsAUsageError() {
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--completion-rate", "-1", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--completion-rate must be at least 0");
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--completion-rate", "fast", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--completion-rate needs a number, not 'fast'");
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--completion-rate N", "(default 20; 0: no limit)");
  }
}
