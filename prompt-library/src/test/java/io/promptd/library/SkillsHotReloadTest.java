package io.promptd.library;

import static io.promptd.library.Files2.formatted;
import static io.promptd.library.Files2.write;
import static io.promptd.library.HotReloadTest.eventually;
import static io.promptd.library.SkillsTest.skill;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.skills.SkillFile;
import io.promptd.library.internal.skills.SkillFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skills follow their files while the library watches: add, edit, delete, and a broken edit keeps
 * the last good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillsHotReloadTest {
  @TempDir
  Path root;

  Library library;

  @BeforeEach
  void start() throws IOException {
    write(root, "ops/review/SKILL.md", skill("review", ""));
    write(root, "ops/review/guide.md", "v1");
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.watch();
  }

  @AfterEach
  void stop() {
    library.close();
  }

  private Optional<SkillFolder> find(String path) {
    return library.skills().stream().filter(s -> s.path().equals(path)).findFirst();
  }

  private long size(String path, String file) {
    return find(path)
        .flatMap(s -> s.files().stream().filter(f -> f.path().equals(file)).findFirst())
        .map(SkillFile::size)
        .orElse(-1L);
  }

  @Test
  void anAddedSkillShowsUpTheVersionGrowsAndListenersHear() throws Exception {
    long version = library.version();
    AtomicInteger heard = new AtomicInteger();
    try (AutoCloseable handle = library.onSkillsChange(heard::incrementAndGet)) {
      write(root, "new-one/SKILL.md", skill("new-one", ""));
      eventually(() -> find("new-one").isPresent());
      eventually(() -> heard.get() == 1);
    }
    assertThat(library.version()).isGreaterThan(version);
    write(root, "ops/review/guide.md", "unheard");
    eventually(() -> size("ops/review", "guide.md") == 7);
    assertThat(heard).hasValue(1);
  }

  @Test
  void aProjectsOwnSkillsAreWatched() {
    write(root, ".claude/skills/deploy/SKILL.md", skill("deploy", ""));
    eventually(() -> find("deploy").isPresent());
    write(root, ".claude/skills/deploy/steps.md", "1. ship");
    eventually(() -> size("deploy", "steps.md") == 7);
  }

  @Test
  void aFolderFileEditedChangesTheSkillsScopes() {
    write(root, "ops/_folder.yaml", "scopes: [ops]\n");
    eventually(() -> find("ops/review").orElseThrow().scopes().equals(Set.of("ops")));
    write(root, "ops/_folder.yaml", "scopes: [ops, admin]\n");
    eventually(() -> find("ops/review").orElseThrow().scopes().equals(Set.of("ops", "admin")));
  }

  @Test
  void aSkillFolderMovedInShowsUpWithItsFiles(@TempDir Path elsewhere) throws IOException {
    write(elsewhere, "moved/SKILL.md", skill("moved", ""));
    write(elsewhere, "moved/data/a.txt", "a");
    Files.move(elsewhere.resolve("moved"), root.resolve("moved"));
    eventually(() -> size("moved", "data/a.txt") == 1);
  }

  @Test
  void anEditedSupportingFileUpdatesTheManifest() {
    write(root, "ops/review/guide.md", "version 2");
    eventually(() -> size("ops/review", "guide.md") == 9);
    write(root, "ops/review/more/extra.txt", "x");
    eventually(() -> size("ops/review", "more/extra.txt") == 1);
  }

  @Test
  void aDeletedFileOrSkillGoesAway() throws IOException {
    Files.delete(root.resolve("ops/review/guide.md"));
    eventually(() -> size("ops/review", "guide.md") == -1);
    Files.delete(root.resolve("ops/review/SKILL.md"));
    eventually(() -> find("ops/review").isEmpty());
  }

  @Test
  void aBrokenEditKeepsTheLastGoodVersionAndReportsIt() {
    write(root, "ops/review/SKILL.md", "---\nname: review\n---\nno description\n");
    eventually(() -> !formatted(library).isEmpty());
    assertThat(formatted(library))
        .containsExactly(root.resolve("ops/review/SKILL.md")
            + ":1: error: SKILL.md front matter needs 'description'");
    assertThat(find("ops/review").orElseThrow().description()).isEqualTo("Reviews an incident.");
    write(root, "ops/review/SKILL.md", skill("review", "").replace("Reviews", "Checks"));
    eventually(() -> find("ops/review").orElseThrow().description().startsWith("Checks"));
    assertThat(formatted(library)).isEmpty();
  }
}
