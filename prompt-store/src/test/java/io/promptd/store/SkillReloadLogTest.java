package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A skill broken on hot reload is logged, once, with its path: its last good version is not kept
 * silently. (Here, not in prompt-library, whose module does not read {@code java.logging}.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillReloadLogTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  Path root;

  private static String skill(String description) {
    return "---\nname: review\n" + description + "---\n# Steps\nDo it.\n";
  }

  private static List<String> formatted(Library library) {
    return library.diagnostics().stream().map(Diagnostic::format).toList();
  }

  @Test
  void aSkillBrokenOnHotReloadIsLoggedOnceWithItsPath() throws Exception {
    Logger logger = Logger.getLogger("io.promptd.library");
    List<String> logged = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        logged.add(record.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(handler);
    Path skillMd = root.resolve("ops/review/SKILL.md");
    Files.createDirectories(skillMd.getParent());
    Files.writeString(skillMd, skill("description: Reviews an incident.\n"));
    Files.writeString(root.resolve("ops/review/guide.md"), "v1");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      library.watch();
      Files.writeString(skillMd, skill(""));
      String problem = skillMd + ":1: error: SKILL.md front matter needs 'description'";
      Poll.until(
          WAIT,
          Duration.ofMillis(10),
          () -> "the problem logged; diagnostics " + formatted(library) + ", log " + logged,
          () -> formatted(library).equals(List.of(problem))
              && logged.stream().anyMatch(m -> m.startsWith(problem)));
      // Another change to the skill, still broken: read again, not logged again.
      Files.writeString(root.resolve("ops/review/guide.md"), "v2");
      Files.writeString(root.resolve("marker.prompt.md"), "---\ndescription: d\n---\nM\n");
      Poll.until(
          WAIT,
          Duration.ofMillis(10),
          () -> "the marker served",
          () -> library.catalog().get("marker").isPresent());
      assertThat(logged.stream().filter(m -> m.startsWith(problem)))
          .containsExactly(problem + " (the skill's last good version stays served)");
    } finally {
      logger.removeHandler(handler);
    }
  }
}
