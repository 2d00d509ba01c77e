package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.FreeTextConfirmation;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --no-elicit}, {@code --no-form-first} and {@code --confirm-free-text}: how users are asked
 * for arguments.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsFormsTest {
  @TempDir
  Path dir;

  @Test
  void formFirstWithFreeTextCheckedForSplittingClientsByDefault() {
    assertThat(ServeOptions.parse(List.of(dir.toString())).forms())
        .isEqualTo(FormOptions.DEFAULT)
        .isEqualTo(new FormOptions(true, true, FreeTextConfirmation.AUTO));
  }

  @Test
  void eachFlagTurnsItsPartOff() {
    assertThat(ServeOptions.parse(List.of("--no-form-first", dir.toString())).forms())
        .isEqualTo(new FormOptions(true, false, FreeTextConfirmation.AUTO));
    assertThat(
            ServeOptions.parse(List.of("--no-elicit", dir.toString())).forms().elicit())
        .isFalse();
    assertThat(ServeOptions.parse(List.of("--confirm-free-text", "always", dir.toString()))
            .forms()
            .confirmFreeText())
        .isEqualTo(FreeTextConfirmation.ALWAYS);
    assertThat(ServeOptions.parse(List.of("--confirm-free-text", "NEVER", dir.toString()))
            .forms()
            .confirmFreeText())
        .isEqualTo(FreeTextConfirmation.NEVER);
  }

  @Test
  void aWrongValueIsAUsageError() {
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--confirm-free-text", "sometimes", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--confirm-free-text must be auto, always or never, not 'sometimes'");
  }

  @Test
  void theUsageTextListsTheFlags() {
    assertThat(Main.USAGE_TEXT)
        .contains("--no-form-first", "--confirm-free-text auto|always|never");
  }
}
