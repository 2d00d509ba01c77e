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
 * {@code promptd serve --skill-files-budget SIZE}: how much of a skill's other text files its
 * prompt embeds, 64 KiB by default, in bytes, KiB or MiB, 0 for links only.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsSkillFilesTest {
  @TempDir
  Path dir;

  private long budget(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(dir.toString());
    return ServeOptions.parse(all).library().skillFilesBudget();
  }

  @Test
  void sixtyFourKibByDefaultAndTheSizeGivenOtherwise() {
    assertThat(budget()).isEqualTo(65_536);
    assertThat(budget("--skill-files-budget", "0")).isZero();
    assertThat(budget("--skill-files-budget", "1000")).isEqualTo(1000);
    assertThat(budget("--skill-files-budget", "128k")).isEqualTo(131_072);
    assertThat(budget("--skill-files-budget", "2M")).isEqualTo(2_097_152);
  }

  @Test
  void aSizeThatIsNoneIsAClearError() {
    for (String bad : List.of("", "k", "-1", "64kb", "1.5m", "9999999999")) {
      assertThatThrownBy(() -> budget("--skill-files-budget", bad))
          .isInstanceOf(UsageException.class)
          .hasMessage("--skill-files-budget needs a size in bytes such as 65536, 64k or 1m"
              + " (0: none), not '" + bad + "'");
    }
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--skill-files-budget")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--skill-files-budget needs a value");
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--skill-files-budget SIZE");
  }
}
