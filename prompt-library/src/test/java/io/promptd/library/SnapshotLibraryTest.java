package io.promptd.library;

import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.library.internal.index.PromptVersions;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A library served from a snapshot of files (the prompt store's seam): no folder, no disk. */
class SnapshotLibraryTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final LibraryOptions OPTIONS = LibraryOptions.defaults();

  private static List<String> names(Library library) {
    return library.catalog().all().stream().map(PromptDefinition::name).toList();
  }

  @Test
  void aPromptsVersionIsTheDigestOfItsFileAndFollowsAReplace() throws Exception {
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(
        new LibraryFiles(1, Map.of("a.prompt.md", utf8("A\n"), "p.md", utf8("one"))));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      assertThat(library.promptVersion("a")).hasValue(PromptVersions.sha256(utf8("A\n")));
      snapshot.replace(new LibraryFiles(2, Map.of("a.prompt.md", utf8("A2\n"))));
      assertThat(library.promptVersion("a")).hasValue(PromptVersions.sha256(utf8("A2\n")));
      assertThat(library.promptVersion("p")).isEmpty();
    }
  }

  @Test
  void servesPartialsAttachmentsAndScansAsAFolderWould() throws Exception {
    LibraryFiles files = new LibraryFiles(
        1,
        Map.of(
            "partials/style.md", utf8("Style for {{lang}}."),
            "deep/p.prompt.md",
                utf8("---\ndescription: d\narguments: [lang]\n---\n{{> partials/style}} Done.\n"
                    + "::: resource ../docs/guide.md\n"),
            "docs/guide.md", utf8("# Guide\n"),
            ".claude/commands/fix.md", utf8("Fix it\n"),
            "node_modules/x.prompt.md", utf8("skipped\n"),
            "broken.prompt.md", utf8("---\ndescription: [unclosed\n---\nHi\n")));
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(files);
    try (Library library = Library.open(snapshot, OPTIONS)) {
      assertThat(names(library)).containsExactlyInAnyOrder("deep-p", "fix");
      assertThat(text(render(library, "deep-p", Map.of("lang", "Go")).messages().getFirst()))
          .isEqualTo("Style for Go. Done.");
      assertThat(library.resources()).extracting(r -> r.uri()).contains("promptd:///docs/guide.md");
      assertThat(library.read("promptd:///docs/guide.md")).isPresent();
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anyMatch(d -> d.contains("broken.prompt.md:") && d.contains("error"));
    }
  }

  @Test
  void aReplacedSnapshotIsOneReloadOfWhatDiffers() throws Exception {
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(new LibraryFiles(
        1, Map.of("a.prompt.md", utf8("A\n"), "b.prompt.md", utf8("B\n"), "p.md", utf8("one"))));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      AtomicInteger changes = new AtomicInteger();
      try (AutoCloseable listening = library.catalog().onChange(changes::incrementAndGet)) {
        long version = library.version();
        snapshot.replace(new LibraryFiles(
            2,
            Map.of(
                "a.prompt.md",
                utf8("A\n"),
                "b.prompt.md",
                utf8("B2\n"),
                "c.prompt.md",
                utf8("C {{> p}}\n"),
                "p.md",
                utf8("one"))));
        assertThat(names(library)).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(changes.get()).isEqualTo(1);
        assertThat(library.version()).isEqualTo(version + 1);
        assertThat(text(render(library, "c", Map.of()).messages().getFirst())).isEqualTo("C one");
        // A partial changes: the prompt using it is re-rendered with the new text; a file goes
        // away.
        snapshot.replace(new LibraryFiles(
            3,
            Map.of(
                "b.prompt.md",
                utf8("B2\n"),
                "c.prompt.md",
                utf8("C {{> p}}\n"),
                "p.md",
                utf8("two"))));
        assertThat(names(library)).containsExactlyInAnyOrder("b", "c");
        assertThat(text(render(library, "c", Map.of()).messages().getFirst())).isEqualTo("C two");
        int before = changes.get();
        snapshot.replace(new LibraryFiles(
            4,
            Map.of(
                "b.prompt.md",
                utf8("B2\n"),
                "c.prompt.md",
                utf8("C {{> p}}\n"),
                "p.md",
                utf8("two"))));
        assertThat(changes.get()).as("the same files again change nothing").isEqualTo(before);
      }
    }
  }

  /**
   * A snapshot that changes many files at once (a replica's first load of the store) is parsed in
   * parallel: the result is the one a file-by-file reload gives — every good prompt, every broken
   * file's diagnostic, partials resolved — and a later one-file change reloads that file alone.
   */
  @Test
  void aLargeSnapshotIsLoadedWholeAndThenChangedFileByFile() throws Exception {
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      Map<String, byte[]> files = new TreeMap<>();
      for (int i = 0; i < 300; i++) {
        files.put(
            String.format("p%03d.prompt.md", i),
            utf8("---\ndescription: number " + i + "\n---\n{{> part}} " + i + "\n"));
      }
      files.put("part.md", utf8("Part"));
      files.put("broken.prompt.md", utf8("---\ndescription: [unclosed\n---\nHi\n"));
      snapshot.replace(new LibraryFiles(1, files));
      assertThat(names(library)).hasSize(300).contains("p000", "p299");
      assertThat(text(render(library, "p123", Map.of()).messages().getFirst()))
          .isEqualTo("Part 123");
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anyMatch(d -> d.contains("broken.prompt.md:") && d.contains("error"));
      AtomicInteger changes = new AtomicInteger();
      try (AutoCloseable listening = library.catalog().onChange(changes::incrementAndGet)) {
        Map<String, byte[]> next = new TreeMap<>(files);
        next.put("p007.prompt.md", utf8("---\ndescription: seven\n---\nSeven\n"));
        snapshot.replace(new LibraryFiles(2, next));
        assertThat(changes.get()).isEqualTo(1);
        assertThat(library.catalog().get("p007").orElseThrow().prompt().description())
            .isEqualTo("seven");
        assertThat(library.catalog().get("p008").orElseThrow().prompt().description())
            .isEqualTo("number 8");
      }
    }
  }

  @Test
  void onlyASnapshotLibraryTakesSnapshotsAndPathsMustBeRelative() throws Exception {
    assertThatThrownBy(() -> new LibraryFiles(1, Map.of("../x.prompt.md", utf8("x"))))
        .hasMessageContaining("not a relative path");
    assertThatThrownBy(() -> new LibraryFiles(1, Map.of("/abs.prompt.md", utf8("x"))))
        .hasMessageContaining("not a relative path");
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(new LibraryFiles(
        1, Map.of("x.prompt.md", utf8("---\ndescription: d\n---\n{{> ../../../etc/passwd}}\n"))));
    try (Library library = Library.open(snapshot, OPTIONS)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anyMatch(d -> d.contains("outside"));
    }
  }

  /** 200 prompts sharing a partial, an attached file, a resource file and a broken prompt. */
  private static Map<String, byte[]> indexed(String partial) {
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < 200; i++) {
      files.put(
          String.format("p%03d.prompt.md", i),
          utf8("---\ndescription: number " + i + "\narguments: [who]\n---\n{{> part}} " + i
              + " for {{who}}\n"));
    }
    files.put("part.md", utf8(partial));
    files.put("r.resource.md", utf8("---\nuri: promptd:///r\n---\nR\n"));
    files.put("broken.prompt.md", utf8("---\ndescription: [unclosed\n---\nHi\n"));
    return files;
  }

  /**
   * A store's replica need not parse what another replica parsed: a library's
   * {@link Library#parsedIndex()} handed to a new library's first snapshot serves every prompt
   * whose content and partials it vouches for without parsing it, and the result is the one a parse
   * gives; a stale index vouches only for what did not change; a damaged or foreign one is ignored.
   */
  @Test
  void aParsedIndexServesAnotherLibrarysFirstSnapshotWithoutParsing() throws Exception {
    Map<String, byte[]> files = indexed("Part");
    byte[] index;
    LibrarySource.Snapshot firstSnapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
    try (Library first = Library.open(firstSnapshot, OPTIONS)) {
      firstSnapshot.replace(new LibraryFiles(1, files));
      index = first.parsedIndex();
    }
    assertThat(index).isNotNull();
    // Digests as a store gives them, for some files; the library computes the others the same way.
    Map<String, String> digests = Map.of("p001.prompt.md", sha256(files.get("p001.prompt.md")));
    LibrarySource.Snapshot secondSnapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
    try (Library second = Library.open(secondSnapshot, OPTIONS)) {
      AtomicInteger changes = new AtomicInteger();
      try (AutoCloseable listening = second.catalog().onChange(changes::incrementAndGet)) {
        secondSnapshot.replace(new LibraryFiles(1, files, digests), index);
        assertThat(changes.get())
            .as("one list change for the whole first snapshot")
            .isEqualTo(1);
      }
      assertThat(second.restoredFromIndex()).isEqualTo(200);
      assertThat(second.parsedIndex()).as("nothing new to keep").isNull();
      assertThat(names(second)).hasSize(200);
      assertThat(text(render(second, "p123", Map.of("who", "Ada")).messages().getFirst()))
          .isEqualTo("Part 123 for Ada");
      assertThat(second.catalog().get("p007").orElseThrow().prompt().description())
          .isEqualTo("number 7");
      assertThat(second.resources()).extracting(r -> r.uri()).contains("promptd:///r");
      assertThat(second.diagnostics())
          .extracting(Diagnostic::format)
          .anyMatch(d -> d.contains("broken.prompt.md:") && d.contains("error"));
      // Afterwards the library changes file by file as any snapshot library does.
      Map<String, byte[]> next = new TreeMap<>(files);
      next.put("p007.prompt.md", utf8("---\ndescription: seven\n---\nSeven\n"));
      secondSnapshot.replace(new LibraryFiles(2, next), index);
      assertThat(second.catalog().get("p007").orElseThrow().prompt().description())
          .isEqualTo("seven");
    }
    // The partial changed since the index was made: every prompt using it is parsed again, and
    // renders the new text.
    LibrarySource.Snapshot staleSnapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
    try (Library stale = Library.open(staleSnapshot, OPTIONS)) {
      Map<String, byte[]> changed = indexed("New part");
      changed.put("p005.prompt.md", utf8("---\ndescription: five\n---\nFive\n"));
      staleSnapshot.replace(new LibraryFiles(3, changed), index);
      assertThat(stale.restoredFromIndex()).isZero();
      assertThat(text(render(stale, "p123", Map.of("who", "Ada")).messages().getFirst()))
          .isEqualTo("New part 123 for Ada");
      assertThat(stale.catalog().get("p005").orElseThrow().prompt().description())
          .isEqualTo("five");
      assertThat(stale.parsedIndex()).isNotNull();
    }
    // One prompt changed: only it is parsed.
    LibrarySource.Snapshot oneSnapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
    try (Library one = Library.open(oneSnapshot, OPTIONS)) {
      Map<String, byte[]> changed = indexed("Part");
      changed.put("p005.prompt.md", utf8("---\ndescription: five\n---\nFive\n"));
      oneSnapshot.replace(new LibraryFiles(3, changed), index);
      assertThat(one.restoredFromIndex()).isEqualTo(199);
      assertThat(one.catalog().get("p005").orElseThrow().prompt().description()).isEqualTo("five");
    }
    // Damaged (one byte flipped) or made for other limits: ignored, everything parsed.
    byte[] damaged = index.clone();
    damaged[damaged.length / 2] ^= 0x40;
    LibraryOptions other =
        OPTIONS.withLimits(OPTIONS.maxPromptBytes() + 1, OPTIONS.maxAttachmentBytes());
    for (var c : List.of(Map.entry(OPTIONS, damaged), Map.entry(other, index))) {
      LibrarySource.Snapshot freshSnapshot = LibrarySource.snapshot(new LibraryFiles(0, Map.of()));
      try (Library fresh = Library.open(freshSnapshot, c.getKey())) {
        freshSnapshot.replace(new LibraryFiles(1, files), c.getValue());
        assertThat(fresh.restoredFromIndex()).isZero();
        assertThat(names(fresh)).hasSize(200);
      }
    }
  }

  @Test
  void digestsMustNameFilesAndBeSha256() {
    assertThatThrownBy(() -> new LibraryFiles(
            1, Map.of("a.prompt.md", utf8("A")), Map.of("b.prompt.md", "0".repeat(64))))
        .hasMessageContaining("which is no file");
    assertThatThrownBy(() ->
            new LibraryFiles(1, Map.of("a.prompt.md", utf8("A")), Map.of("a.prompt.md", "xyz")))
        .hasMessageContaining("not 64 hexadecimal digits");
  }

  private static String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }
}
