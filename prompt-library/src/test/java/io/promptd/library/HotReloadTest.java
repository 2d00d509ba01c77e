package io.promptd.library;

import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotReloadTest {
  @TempDir
  Path root;

  Library library;
  final AtomicInteger changes = new AtomicInteger();

  @BeforeEach
  void start() throws IOException {
    write(root, "a.prompt.md", prompt("A1"));
    write(root, "partials/footer.md", "footer 1");
    write(root, "b.prompt.md", prompt("B {{> partials/footer}}"));
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.catalog().onChange(changes::incrementAndGet);
    library.watch();
    library.watch(); // idempotent
  }

  @AfterEach
  void stop() {
    library.close();
  }

  @Test
  void changesMadeBetweenLoadAndWatchAreCaughtUp(@TempDir Path other) throws IOException {
    write(other, "kept.prompt.md", prompt("K1"));
    write(other, "gone.prompt.md", prompt("G"));
    try (Library late =
        Library.open(LibrarySource.folders(List.of(other)), LibraryOptions.defaults())) {
      write(other, "kept.prompt.md", prompt("K2 changed"));
      write(other, "new.prompt.md", prompt("N"));
      Files.delete(other.resolve("gone.prompt.md"));
      late.watch();
      assertThat(late.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("kept", "new");
      assertThat(text(render(late, "kept", Map.of()).messages().getFirst()))
          .isEqualTo("K2 changed");
    }
  }

  @Test
  void anEditShowsUp() {
    write(root, "a.prompt.md", prompt("A2"));
    eventually(() -> body("a").equals("A2"));
  }

  @Test
  void aSaveThroughATempFileAndRenameShowsUp() throws IOException {
    Path temp = write(root, ".a.prompt.md.swp", prompt("A3"));
    Files.move(
        temp,
        root.resolve("a.prompt.md"),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    eventually(() -> body("a").equals("A3"));
    assertThat(library.catalog().all())
        .extracting(PromptDefinition::name)
        .containsExactly("a", "b");
  }

  @Test
  void newFilesNewFoldersAndDeletesAreFollowed() throws IOException {
    write(root, "new/deeper/c.prompt.md", prompt("C"));
    eventually(() -> library.catalog().get("new-deeper-c").isPresent());
    write(root, "new/deeper/d.prompt.md", prompt("D"));
    eventually(() -> library.catalog().get("new-deeper-d").isPresent());
    Files.delete(root.resolve("a.prompt.md"));
    eventually(() -> library.catalog().get("a").isEmpty());
    Files.move(root.resolve("new"), root.resolve("renamed"));
    eventually(() -> library.catalog().get("renamed-deeper-c").isPresent()
        && library.catalog().get("new-deeper-c").isEmpty());
  }

  @Test
  void aBrokenEditKeepsTheLastGoodVersionAndIsReported() {
    write(root, "a.prompt.md", "---\ndescription: [broken\n---\nA9");
    eventually(() -> library.diagnostics().stream().anyMatch(Diagnostic::isError));
    assertThat(body("a")).isEqualTo("A1");
    assertThat(library.diagnostics())
        .extracting(Diagnostic::format)
        .anyMatch(
            d -> d.startsWith(root.resolve("a.prompt.md") + ":3: error: invalid front matter"));
    write(root, "a.prompt.md", prompt("A10"));
    eventually(() -> body("a").equals("A10"));
    assertThat(library.diagnostics()).isEmpty();
  }

  @Test
  void aBrokenNewFileStaysAbsent() {
    write(root, "c.prompt.md", "---\ndescription: [broken\n---\nC");
    eventually(() -> !library.diagnostics().isEmpty());
    assertThat(library.catalog().get("c")).isEmpty();
  }

  @Test
  void changingAPartialReloadsThePromptsUsingIt() {
    write(root, "partials/footer.md", "footer 2");
    eventually(() -> body("b").equals("B footer 2"));
  }

  @Test
  void duplicateNamesHaveADeterministicWinnerAndTheLoserTakesOver() throws IOException {
    write(root, "z/x.prompt.md", "---\nname: a\ndescription: d\n---\nfrom z");
    eventually(
        () -> library.diagnostics().stream().anyMatch(d -> d.message().contains("also claimed")));
    assertThat(body("a")).isEqualTo("A1"); // a.prompt.md sorts before z/x.prompt.md
    Files.delete(root.resolve("a.prompt.md"));
    eventually(() -> body("a").equals("from z"));
    assertThat(library.diagnostics()).isEmpty();
  }

  @Test
  void savingWithoutAChangeTellsNobody() throws Exception {
    write(root, "a.prompt.md", prompt("A4"));
    eventually(() -> body("a").equals("A4"));
    int before = changes.get();
    Object served = library.catalog().get("a").orElseThrow();
    write(root, "a.prompt.md", prompt("A4"));
    write(root, "unrelated.txt", "x");
    // A real change saved after them: once it is visible, the saves before it have been handled too
    // (the watcher reports a folder's events in order), so nothing is left to wait for and only
    // this change may have counted.
    write(root, "marker.prompt.md", prompt("M"));
    // The catalog shows a change before its listeners have run: wait for the marker's to be heard
    // too.
    eventually(() -> library.catalog().get("marker").isPresent() && changes.get() > before);
    assertThat(changes.get()).isEqualTo(before + 1);
    assertThat(library.catalog().get("a").orElseThrow())
        .as("the prompt saved unchanged")
        .isSameAs(served);
  }

  @Test
  void aMissingAttachmentThatAppearsLetsThePromptLoad() {
    write(root, "pic.prompt.md", "---\ndescription: d\n---\n::: image img/pic.png\n");
    eventually(
        () -> library.diagnostics().stream().anyMatch(d -> d.message().contains("does not exist")));
    write(root, "img/pic.png", AttachmentsTest.PNG);
    eventually(() -> library.catalog().get("pic").isPresent());
    assertThat(library.diagnostics()).isEmpty();
  }

  @Test
  void aFileEmptiedMidSaveKeepsItsLastGoodVersion() {
    write(root, "a.prompt.md", "");
    eventually(() -> !library.diagnostics().isEmpty());
    assertThat(body("a")).isEqualTo("A1");
    assertThat(library.diagnostics())
        .extracting(Diagnostic::format)
        .contains(
            root.resolve("a.prompt.md") + ":1: error: the prompt has no text: the body is empty");
  }

  @Test
  void connectedClientsHearListChanged() {
    List<String> sent = new CopyOnWriteArrayList<>();
    try (McpHarness mcp =
        new McpHarness(library.catalog(), message -> sent.add(MessageCodec.encode(message)))) {
      write(root, "a.prompt.md", prompt("A5"));
      eventually(() ->
          sent.contains("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}"));
      assertThat(mcp.call("prompts/get", "{\"name\":\"a\"}")).contains("A5");
    }
  }

  private String body(String name) {
    return library.catalog().get(name).isEmpty()
        ? "<absent>"
        : text(render(library, name, Map.of()).messages().getFirst());
  }

  private static String prompt(String body) {
    return "---\ndescription: d\n---\n" + body + "\n";
  }

  static void eventually(BooleanSupplier condition) {
    Poll.await(
        Duration.ofSeconds(10),
        Duration.ofMillis(5),
        "the library caught up with the files",
        condition);
  }
}
