package io.promptd.library;

import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.disk.IndexFormat;
import io.promptd.library.internal.disk.LibraryCache;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-disk index: used only while files are unchanged, ignored when missing, foreign or damaged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibraryCacheTest {
  @TempDir
  Path root;

  @TempDir
  Path cacheDir;

  LibraryOptions options;
  final FileTime past = FileTime.from(Instant.now().minus(Duration.ofHours(1)));

  @BeforeEach
  void library() throws IOException {
    options = LibraryOptions.defaults().withCacheDirectory(cacheDir);
    write(root, "plain.prompt.md", "---\ndescription: Plain\n---\nHello\n");
    write(root, "choice.prompt.md", """
        ---
        description: Choice
        tags: [a, b]
        arguments:
          - name: level
            enum: [low, high]
        ---
        Level {{level}}
        """);
    write(root, "partials/footer.md", "footer 1");
    write(
        root,
        "uses.prompt.md",
        "---\ndescription: Uses\narguments: [unused]\n---\nBody {{> partials/footer}}\n");
    settle(root);
  }

  @Test
  void anUnchangedLibraryIsServedFromTheIndexAndRendersTheSame() throws Exception {
    List<String> diagnostics;
    try (Library first = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(first.restoredFromIndex()).isZero();
      diagnostics = Files2.formatted(first);
    }
    assertThat(diagnostics)
        .anyMatch(d -> d.contains("argument 'unused' is declared but never used"));
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isEqualTo(3);
      assertThat(again.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("choice", "plain", "uses");
      assertThat(Files2.formatted(again)).isEqualTo(diagnostics);
      assertThat(again.catalog().get("choice").orElseThrow().prompt().meta()).isNotNull();
      assertThat(text(render(again, "uses", Map.of()).messages().getFirst()))
          .isEqualTo("Body footer 1");
      assertThat(again.catalog().get("choice").orElseThrow().completer()).isNotNull();
      assertThat(again.catalog().get("plain").orElseThrow().completer()).isNull();
    }
  }

  @Test
  void aRestartServesEachNameOnceWithTheSameWinnerAndFilesTheIndexLacksToo() throws Exception {
    write(root, "a/dup.prompt.md", "---\nname: twice\ndescription: A\n---\nA\n");
    write(root, "b/dup.prompt.md", "---\nname: twice\ndescription: B\n---\nB\n");
    settle(root);
    List<String> diagnostics;
    try (Library first = Library.open(LibrarySource.folders(List.of(root)), options)) {
      diagnostics = Files2.formatted(first);
    }
    assertThat(diagnostics).anyMatch(d -> d.contains("prompt name 'twice' is also claimed by"));
    for (String added : List.of("", "0-new.prompt.md")) {
      if (!added.isEmpty()) {
        write(root, added, "---\ndescription: New\n---\nNew\n");
        settle(root);
      }
      try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
        assertThat(again.restoredFromIndex()).isEqualTo(5);
        List<String> names = added.isEmpty()
            ? List.of("choice", "plain", "twice", "uses")
            : List.of("0-new", "choice", "plain", "twice", "uses");
        assertThat(again.catalog().all())
            .extracting(PromptDefinition::name)
            .containsExactlyElementsOf(names);
        assertThat(again.catalog().get("twice").orElseThrow().prompt().description())
            .isEqualTo("A");
        assertThat(Files2.formatted(again)).isEqualTo(diagnostics);
      }
    }
  }

  @Test
  void aRestoredPromptListsAsParsedAndAnIndexWrittenAgainKeepsWhatItDidNotDecode()
      throws Exception {
    Map<String, Prompt> parsed = new HashMap<>();
    try (Library first = Library.open(LibrarySource.folders(List.of(root)), options)) {
      first.catalog().all().forEach(d -> parsed.put(d.name(), d.prompt()));
    }
    write(root, "plain.prompt.md", "---\ndescription: Plain, edited\n---\nHello\n");
    settle(root);
    try (Library second = Library.open(LibrarySource.folders(List.of(root)), options)) {
      // choice and uses come from the index; nothing asks for their listings, so the index this
      // load writes again (for the edited file) holds the bytes it read for them
      assertThat(second.restoredFromIndex()).isEqualTo(2);
    }
    try (Library third = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(third.restoredFromIndex()).isEqualTo(3);
      assertThat(third.catalog().get("choice").orElseThrow().prompt())
          .isEqualTo(parsed.get("choice"));
      assertThat(third.catalog().get("uses").orElseThrow().prompt()).isEqualTo(parsed.get("uses"));
      assertThat(third.catalog().get("plain").orElseThrow().prompt().description())
          .isEqualTo("Plain, edited");
      // and one asked for before the index is written again is written from what it decoded
      write(root, "plain.prompt.md", "---\ndescription: Plain, edited twice\n---\nHello\n");
      settle(root);
    }
    try (Library fourth = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(fourth.restoredFromIndex()).isEqualTo(2);
      assertThat(fourth.catalog().get("choice").orElseThrow().prompt())
          .isEqualTo(parsed.get("choice"));
    }
    try (Library fifth = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(fifth.restoredFromIndex()).isEqualTo(3);
      assertThat(fifth.catalog().get("choice").orElseThrow().prompt())
          .isEqualTo(parsed.get("choice"));
      assertThat(fifth.catalog().get("uses").orElseThrow().prompt()).isEqualTo(parsed.get("uses"));
    }
  }

  @Test
  void aLibraryBelowTheIndexsMinimumNeitherReadsNorWritesOne() throws Exception {
    LibraryOptions three = options.toBuilder().cacheMinimumFiles(3).build();
    Library.open(LibrarySource.folders(List.of(root)), three).close(); // 3 prompt files: indexed
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), three)) {
      assertThat(again.restoredFromIndex()).isEqualTo(3);
    }
    Files.delete(root.resolve("plain.prompt.md"));
    long written = Files.getLastModifiedTime(index()).toMillis();
    try (Library smaller = Library.open(LibrarySource.folders(List.of(root)), three)) {
      // two files: the index, though there and still right for both, is not read, nor written again
      assertThat(smaller.restoredFromIndex()).isZero();
      assertThat(smaller.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("choice", "uses");
    }
    assertThat(Files.getLastModifiedTime(index()).toMillis()).isEqualTo(written);
  }

  @Test
  void aChangedFileOrPartialIsReadAgain() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    write(root, "plain.prompt.md", "---\ndescription: Plain\n---\nHello again\n");
    write(root, "partials/footer.md", "footer 2, longer");
    settle(root);
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isEqualTo(1); // only choice.prompt.md
      assertThat(text(render(again, "plain", Map.of()).messages().getFirst()))
          .isEqualTo("Hello again");
      assertThat(text(render(again, "uses", Map.of()).messages().getFirst()))
          .isEqualTo("Body footer 2, longer");
    }
    try (Library third = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(third.restoredFromIndex()).isEqualTo(3); // the index was rewritten
    }
  }

  /**
   * An index written while an error did not stop a file (an undeclared variable was served as empty
   * text) vouches for a prompt with an error: that file is parsed again, and not served.
   */
  @Test
  void anIndexedFileWithAnErrorIsParsedAgainAndNotServed() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    // As many bytes as before, at the same time: only the index's own word tells it changed.
    Path plain = write(root, "plain.prompt.md", "---\ndescription: Plain\n---\n{{x}}\n");
    settle(root);
    String error = "template uses 'x' but no argument 'x' is declared";
    LibraryCache cache = LibraryCache.of(Root.openAll(List.of(root), "test"), options);
    List<IndexFormat.Cached> entries = cache.read().values().stream()
        .map(c -> !c.file().equals(plain.toString())
            ? c
            : new IndexFormat.Cached(
                c.root(),
                c.file(),
                c.size(),
                c.modified(),
                c.name(),
                c.prompt(),
                c.nameLine(),
                c.completable(),
                c.fingerprint(),
                List.of(new IndexFormat.Problem(true, 4, error)),
                c.dependencyPaths(),
                c.dependencyStamps(),
                c.attachments(),
                c.scopes()))
        .toList();
    cache.write(entries, entries.size(), c -> c);

    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isEqualTo(2);
      assertThat(again.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("choice", "uses");
      assertThat(Files2.errors(again)).containsExactly(plain + ":4: error: " + error);
    }
  }

  @Test
  void aDeletedIndexMeansReadingTheFiles() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    Files.delete(index());
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isZero();
      assertThat(again.catalog().size()).isEqualTo(3);
    }
  }

  @Test
  void aCorruptedIndexIsIgnored() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    byte[] data = Files.readAllBytes(index());
    data[data.length / 2] ^= 0x40;
    Files.write(index(), data);
    assertIgnored();
  }

  @Test
  void aTruncatedIndexIsIgnored() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    byte[] data = Files.readAllBytes(index());
    Files.write(index(), Arrays.copyOf(data, data.length - 20));
    assertIgnored();
    Files.write(index(), new byte[0]);
    assertIgnored();
  }

  @Test
  void anIndexOfAnotherFormatIsIgnoredEvenWithAValidChecksum() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    byte[] data = Files.readAllBytes(index());
    ByteBuffer.wrap(data).putInt(Integer.BYTES, LibraryCache.FORMAT + 1);
    CRC32C crc = new CRC32C();
    crc.update(data, 0, data.length - Long.BYTES);
    ByteBuffer.wrap(data).putLong(data.length - Long.BYTES, crc.getValue());
    Files.write(index(), data);
    assertIgnored();
  }

  @Test
  void theIndexIsWrittenWholeThroughARenameAndOnlyForLargeEnoughLibraries() throws Exception {
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    try (Stream<Path> files = Files.list(cacheDir)) {
      assertThat(files).containsExactly(index()); // no temporary file left behind
    }
    assertThat(ByteBuffer.wrap(Files.readAllBytes(index())).getInt()).isEqualTo(LibraryCache.MAGIC);
    Files.delete(index());
    LibraryOptions small =
        options.toBuilder().cacheDirectory(cacheDir).cacheMinimumFiles(4).build();
    Library.open(LibrarySource.folders(List.of(root)), small).close();
    assertThat(Files.exists(index())).isFalse();
  }

  @Test
  void freshFilesAreNotIndexedBecauseTheirTimeMayNotTellTwoSavesApart() throws Exception {
    write(
        root,
        "plain.prompt.md",
        "---\ndescription: Plain\n---\nHello\n"); // just written: not settled
    Library.open(LibrarySource.folders(List.of(root)), options).close();
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isEqualTo(2);
    }
  }

  private void assertIgnored() throws IOException {
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isZero();
      assertThat(again.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("choice", "plain", "uses");
    }
  }

  private Path index() throws IOException {
    Path file = LibraryCache.of(Root.openAll(List.of(root), "test"), options).file();
    assertThat(file).isNotNull();
    return file;
  }

  /**
   * Dates every file an hour back, as files that were saved long before the library loads them;
   * always to the same time, so that only a change of size tells a file changed.
   */
  private void settle(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(f, past);
      }
    }
  }
}
