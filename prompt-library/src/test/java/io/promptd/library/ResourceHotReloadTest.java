package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.ResourceFormatTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceHotReloadTest {
  @TempDir
  Path root;

  Library library;
  final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    write(root, "watched.resource.md", resource("test://watched", "one"));
    write(root, "assets/data.txt", "data 1");
    write(
        root,
        "data.resource.md",
        "---\nuri: test://data\ndescription: d\nfile: assets/data.txt\n---\n");
    write(root, "img/a.txt", "attached 1");
    write(root, "p.prompt.md", "---\ndescription: d\n---\n::: resource img/a.txt\n");
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.onChange(new ResourceProvider.Listener() {
      @Override
      public void listChanged() {
        events.add("list");
      }

      @Override
      public void updated(String uri) {
        events.add("updated " + uri);
      }
    });
    library.watch();
    library.watch(); // idempotent
  }

  @AfterEach
  void stop() {
    library.close();
  }

  @Test
  void anEditIsServedAndAnnouncedAsAnUpdate() {
    write(root, "watched.resource.md", resource("test://watched", "two"));
    eventually(() -> events.contains("updated test://watched"));
    assertThat(text(library, "test://watched")).isEqualTo("two");
    assertThat(events).doesNotContain("list");
  }

  @Test
  void aSaveThroughATempFileAndRenameIsAnUpdate() throws IOException {
    Path temp = write(root, ".watched.resource.md.swp", resource("test://watched", "three"));
    Files.move(
        temp,
        root.resolve("watched.resource.md"),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    eventually(() -> events.contains("updated test://watched"));
    assertThat(text(library, "test://watched")).isEqualTo("three");
  }

  @Test
  void aChangedFileTargetOrAttachmentIsAnUpdateOfTheResourcesBuiltOnIt() {
    write(root, "assets/data.txt", "data 2");
    eventually(() -> events.contains("updated test://data"));
    assertThat(text(library, "test://data")).isEqualTo("data 2");
    write(root, "img/a.txt", "attached 2");
    eventually(() -> events.contains("updated promptd:///img/a.txt"));
    assertThat(text(library, "promptd:///img/a.txt")).isEqualTo("attached 2");
  }

  @Test
  void aMissingFileTargetThatAppearsLaterIsPickedUp() {
    Path file = write(
        root,
        "late.resource.md",
        "---\nuri: test://late\ndescription: d\nfile: later/late.txt\n---\n");
    eventually(() -> library.diagnostics().stream().anyMatch(d -> d.file().equals(file)));
    assertThat(library.read("test://late")).isEmpty();
    write(root, "later/late.txt", "here now");
    eventually(() -> uris().contains("test://late"));
    assertThat(text(library, "test://late")).isEqualTo("here now");
    assertThat(library.diagnostics()).isEmpty();
  }

  @Test
  void addingAndRemovingResourcesChangesTheList() throws IOException {
    write(root, "new/folder/fresh.resource.md", resource("test://fresh", "fresh"));
    eventually(() -> uris().contains("test://fresh"));
    eventually(() -> events.contains("list"));
    events.clear();
    Files.delete(root.resolve("watched.resource.md"));
    eventually(() -> !uris().contains("test://watched"));
    eventually(() -> events.contains("list"));
    events.clear();
    Files.move(root.resolve("new"), root.resolve("renamed"));
    write(root, "renamed/folder/second.resource.md", resource("test://second", "second"));
    eventually(() -> uris().contains("test://second"));
    assertThat(uris()).contains("test://fresh");
    events.clear();
    write(root, "q.prompt.md", "---\ndescription: d\n---\n::: link promptd:///extra.md\n");
    write(root, "extra.md", "extra");
    eventually(() -> uris().contains("promptd:///extra.md"));
    eventually(() -> events.contains("list"));
  }

  @Test
  void aBrokenEditKeepsTheLastGoodVersionAndIsReported() {
    Path file = root.resolve("watched.resource.md");
    write(root, "watched.resource.md", "---\nuri: test://watched\ndescription: [broken\n---\nbad");
    eventually(() -> library.diagnostics().stream().anyMatch(Diagnostic::isError));
    assertThat(text(library, "test://watched")).isEqualTo("one");
    assertThat(library.diagnostics())
        .extracting(Diagnostic::format)
        .anyMatch(d -> d.startsWith(file + ":4: error: invalid front matter"));
    write(root, "watched.resource.md", resource("test://watched", "fixed"));
    eventually(() -> text(library, "test://watched").equals("fixed"));
    assertThat(library.diagnostics()).isEmpty();
  }

  private List<String> uris() {
    return library.resources().stream().map(Resource::uri).toList();
  }

  private static String resource(String uri, String body) {
    return "---\nuri: " + uri + "\ndescription: d\n---\n" + body + "\n";
  }

  /**
   * Polls until {@code condition} holds; generous, because CI machines are slow and file events
   * vary.
   */
  static void eventually(BooleanSupplier condition) {
    Poll.await(
        Duration.ofSeconds(20),
        Duration.ofMillis(20),
        "the library caught up with the files",
        condition);
  }
}
