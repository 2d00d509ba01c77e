package io.promptd.library;

import static io.promptd.library.Files2.errors;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostileFilesTest {
  @TempDir
  Path root;

  @TempDir
  Path elsewhere;

  @Test
  void enormousFilesAreRefusedWithoutBeingRead() throws IOException {
    try (RandomAccessFile f =
        new RandomAccessFile(root.resolve("huge.prompt.md").toFile(), "rw")) {
      f.setLength(3L << 30); // sparse: costs no disk, but 3 GiB if anyone tried to read it
    }
    write(root, "ok.prompt.md", "---\ndescription: d\n---\nfine");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).hasSize(1);
      assertThat(errors(library))
          .containsExactly(
              root.resolve("huge.prompt.md")
                  + ":1: error: prompt file 'huge.prompt.md' is 3221225472 bytes, over the limit of 1048576");
    }
  }

  @Test
  void aRootWithTooManyFilesServesOnlyTheLimit() throws IOException {
    for (int i = 0; i < 5; i++) {
      write(root, "p" + i + ".prompt.md", "---\ndescription: d\n---\nx");
    }
    LibraryOptions options = LibraryOptions.builder()
        .maxPromptBytes(1 << 20)
        .maxAttachmentBytes(1 << 20)
        .maxFiles(3)
        .debounce(Duration.ofMillis(25))
        .parallelism(2)
        .cacheDirectory(null)
        .cacheMinimumFiles(0)
        .build();
    try (Library library = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(library.catalog().size()).isEqualTo(3);
      assertThat(errors(library))
          .containsExactly(
              root
                  + ":1: error: found 5 prompt files, over the limit of 3; only the first 3 are served");
    }
  }

  @Test
  void invalidUtf8IsReportedAtItsLine() {
    byte[] bytes =
        "---\ndescription: d\n---\nok\nbad \u00ff here\n".getBytes(StandardCharsets.ISO_8859_1);
    write(root, "latin1.prompt.md", bytes);
    try (Library library = load(root)) {
      assertThat(errors(library))
          .containsExactly(root.resolve("latin1.prompt.md")
              + ":5: error: not valid UTF-8: byte 0xFF at offset 30");
    }
  }

  @Test
  void yamlBombsAndDeepNestingAreRefused() {
    StringBuilder bomb =
        new StringBuilder("---\ndescription: d\na: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      bomb.append(c)
          .append(": &")
          .append(c)
          .append(" [")
          .append(("*" + (char) (c - 1) + ", ").repeat(8))
          .append('*')
          .append((char) (c - 1))
          .append("]\n");
    }
    write(root, "bomb.prompt.md", bomb + "---\nx\n");
    write(
        root,
        "deep.prompt.md",
        "---\ndescription: " + "[".repeat(100) + "]".repeat(100) + "\n---\nx\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(errors(library)).hasSize(2).allMatch(e -> e.contains("error:"));
    }
  }

  @Test
  void aPromptFileLinkedFromOutsideIsNotRead() throws IOException {
    Path outside = write(elsewhere, "elsewhere.prompt.md", "---\ndescription: d\n---\nsecret");
    Files.createSymbolicLink(root.resolve("linked.prompt.md"), outside);
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(errors(library))
          .containsExactly(
              root.resolve("linked.prompt.md")
                  + ":1: error: prompt file 'linked.prompt.md' is a link that leads outside the library root");
    }
  }

  @Test
  void aFileRewrittenWhileBeingReadNeverBreaksTheLibrary() throws Exception {
    Path file = write(root, "p.prompt.md", version("start"));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger missing = new AtomicInteger();
    try (Library library = Library.open(
        LibrarySource.folders(List.of(root)),
        LibraryOptions.defaults().withDebounce(Duration.ZERO))) {
      library.watch();
      Thread writer = Thread.ofPlatform().start(() -> {
        for (int i = 0; i < 300 && !stop.get(); i++) {
          rewriteSlowly(file, version("v" + i));
        }
      });
      while (writer.isAlive()) {
        if (library.catalog().get("p").isEmpty()) {
          missing.incrementAndGet();
        }
        Thread.sleep(1);
      }
      rewriteSlowly(file, version("final"));
      Poll.until(
          Duration.ofSeconds(10),
          Duration.ofMillis(10),
          () -> "the final version rendered",
          () -> rendered(library).startsWith("final"));
      assertThat(rendered(library)).startsWith("final");
      assertThat(missing.get())
          .as("times the prompt vanished while its file was rewritten")
          .isZero();
    } finally {
      stop.set(true);
    }
  }

  private static String rendered(Library library) {
    var messages = render(library, "p", Map.of()).messages();
    return messages.isEmpty() ? "" : text(messages.getFirst());
  }

  private static String version(String tag) {
    return "---\ndescription: d\n---\n" + tag + " " + "lorem ipsum ".repeat(2000) + "\n";
  }

  /** Truncates, then writes in small pieces, so readers see half-written files. */
  private static void rewriteSlowly(Path file, String content) {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      for (int at = 0; at < bytes.length; at += 4096) {
        channel.write(ByteBuffer.wrap(bytes, at, Math.min(4096, bytes.length - at)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
