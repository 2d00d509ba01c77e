package io.promptd.library;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.PromptDefinition;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The two sources a library opens: what a snapshot does before and after it is opened, and what
 * opening checks.
 */
class LibrarySourceTest {
  private static final LibraryOptions OPTIONS =
      LibraryOptions.builder().cacheDirectory(null).build();

  private static LibraryFiles files(long version, String... names) {
    Map<String, byte[]> files = new TreeMap<>();
    for (String name : names) {
      files.put(name + ".prompt.md", ("---\ndescription: " + name + "\n---\nHi\n").getBytes(UTF_8));
    }
    return new LibraryFiles(version, files);
  }

  private static List<String> names(Library library) {
    return library.catalog().all().stream().map(PromptDefinition::name).toList();
  }

  @Test
  void aSnapshotReplacedBeforeItIsOpenedOpensWithTheLastFiles() throws Exception {
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot();
    snapshot.replace(files(1, "a"));
    snapshot.replace(files(2, "b", "c"));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      assertThat(names(library)).containsExactlyInAnyOrder("b", "c");
      snapshot.replace(files(3, "c"));
      assertThat(names(library)).containsExactly("c");
    }
  }

  @Test
  void aSnapshotServesOneLibrary() throws Exception {
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(files(1, "a"));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      assertThat(names(library)).containsExactly("a");
      assertThatThrownBy(() -> Library.open(snapshot, OPTIONS))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "Library.open: this snapshot serves a library already; a snapshot serves one");
    }
    assertThatThrownBy(() -> snapshot.replace(files(2, "b")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Library.replace: the library is closed");
  }

  @Test
  void foldersNeedAtLeastOne() {
    assertThatThrownBy(() -> Library.open(LibrarySource.folders(List.of()), OPTIONS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Library.open: give at least one folder");
  }

  @Test
  void optionsAreCheckedWhenBuilt() {
    assertThatThrownBy(() -> LibraryOptions.builder().maxFiles(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LibraryOptions: limits and parallelism must be positive");
    LibraryOptions options = LibraryOptions.builder().maxFiles(7).build();
    assertThat(options.toBuilder().build()).isEqualTo(options);
    assertThat(options.withCacheDirectory(null).cacheMinimumFiles()).isZero();
    assertThat(LibraryOptions.defaults().maxPromptBytes()).isEqualTo(1L << 20);
  }
}
