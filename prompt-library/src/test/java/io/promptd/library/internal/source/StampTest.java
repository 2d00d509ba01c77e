package io.promptd.library.internal.source;

import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StampTest {
  @TempDir
  Path root;

  @Test
  void readingASettledFileIsNotAChange() throws Exception {
    Path file = write(root, "p.prompt.md", "x");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
    Stamp before = Stamp.of(file);
    Files.setAttribute(file, "lastAccessTime", FileTime.from(Instant.now()));
    assertThat(before).isNotNull();
    assertThat(before.unchanged(Stamp.of(file))).isTrue();
  }

  @Test
  void editsAndFreshFilesAreAlwaysChanges() throws Exception {
    Path file = write(root, "p.prompt.md", "x");
    Stamp fresh = Stamp.of(file);
    assertThat(fresh).isNotNull();
    assertThat(fresh.unchanged(Stamp.of(file)))
        .as("modified just now: timestamps may be coarse")
        .isFalse();
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
    Stamp settled = Stamp.of(file);
    assertThat(settled).isNotNull();
    write(root, "p.prompt.md", "y");
    assertThat(settled.unchanged(Stamp.of(file))).isFalse();
    assertThat(settled.unchanged(null)).isFalse();
  }
}
