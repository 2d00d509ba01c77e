package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.PromptFolding;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --fold auto|always|never}: whether rendered prompts are folded into one text message. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsFoldTest {
  @TempDir
  Path dir;

  @Test
  void byClientByDefaultAndAsGiven() {
    assertThat(ServeOptions.parse(List.of(dir.toString())).fold()).isEqualTo(PromptFolding.AUTO);
    assertThat(ServeOptions.parse(List.of("--fold", "always", dir.toString())).fold())
        .isEqualTo(PromptFolding.ALWAYS);
    assertThat(ServeOptions.parse(List.of("--fold", "NEVER", dir.toString())).fold())
        .isEqualTo(PromptFolding.NEVER);
  }

  @Test
  void aWrongValueIsAUsageError() {
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--fold", "sometimes", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--fold must be auto, always or never, not 'sometimes'");
    assertThatThrownBy(() -> ServeOptions.parse(List.of(dir.toString(), "--fold")))
        .isInstanceOf(UsageException.class);
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--fold auto|always|never");
  }
}
