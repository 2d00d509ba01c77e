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
 * {@code promptd serve --max-sessions-per-caller N}: the per-caller quota of legacy HTTP sessions.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsSessionsPerCallerTest {
  @TempDir
  Path dir;

  @Test
  void theDefaultIsTwoHundredAndTheFlagSetsIt() {
    assertThat(ServeOptions.parse(List.of("--http", dir.toString())).sessionsPerCaller())
        .isEqualTo(200);
    assertThat(ServeOptions.parse(
                List.of("--http", "--max-sessions-per-caller", "1000", dir.toString()))
            .sessionsPerCaller())
        .isEqualTo(1000);
  }

  @Test
  void aQuotaBelowOneOrWithoutHttpIsAUsageError() {
    assertThatThrownBy(() ->
            ServeOptions.parse(List.of("--http", "--max-sessions-per-caller", "0", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-sessions-per-caller must be at least 1");
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--http", "--max-sessions-per-caller", "many", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-sessions-per-caller needs a number, not 'many'");
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--max-sessions-per-caller", "5", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--max-sessions-per-caller needs --http");
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--max-sessions-per-caller N", "(default 200;");
  }
}
