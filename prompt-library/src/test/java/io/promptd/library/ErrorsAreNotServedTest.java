package io.promptd.library;

import static io.promptd.library.Files2.errors;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static io.promptd.library.HotReloadTest.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A prompt file with any error {@code promptd check} reports is not served: at first load it is not
 * listed; edited from a good version into a bad one, the good one stays served until it is fixed.
 * The errors are the very ones {@link Linter#check} reports.
 */
class ErrorsAreNotServedTest {
  @TempDir
  Path root;

  /**
   * One way to break a prompt file.
   *
   * @param what what is wrong, for the test's name
   * @param good a version that is served, rendering {@code goodText} with no arguments
   * @param bad the broken version
   * @param error the error {@code check} reports for {@code bad}, after the file's path
   * @param fixed a corrected version, rendering {@code fixedText}
   */
  record Case(
      String what,
      String good,
      String goodText,
      String bad,
      String error,
      String fixed,
      String fixedText) {
    @Override
    public String toString() {
      return what;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "an undeclared template variable",
            haiku("Write a haiku about {{subject}}."),
            "Write a haiku about autumn.",
            haiku("Write a haiku about {{subjet}}."),
            ":7: error: template uses 'subjet' but no argument 'subjet' is declared",
            haiku("Write a short haiku about {{subject}}."),
            "Write a short haiku about autumn."),
        new Case(
            "a missing attached file",
            picture("img/pic.png", "Describe this picture."),
            "Describe this picture.",
            picture("img/gone.png", "Describe this picture."),
            ":5: error: image 'img/gone.png' does not exist",
            picture("img/pic.png", "Describe this picture, briefly."),
            "Describe this picture, briefly."),
        new Case(
            "an enum default outside the enum",
            language("fr", "Translate into {{lang}}."),
            "Translate into fr.",
            language("es", "Translate into {{lang}}."),
            ":6: error: argument 'lang': default must be one of fr, de, not 'es'",
            language("de", "Translate it into {{lang}}."),
            "Translate it into de."),
        new Case(
            "a keyed enum default outside its key's list",
            levels("junior", "A {{level}} {{lang}} exercise."),
            "A junior Java exercise.",
            levels("novice", "A {{level}} {{lang}} exercise."),
            ":6: error: argument 'level': default must be one of junior, senior when 'lang' is"
                + " 'Java', not 'novice' (the default of 'lang')",
            levels("senior", "One {{level}} {{lang}} exercise."),
            "One senior Java exercise."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aFileWithAnErrorAtFirstLoadIsNotListed(Case c) throws IOException {
    write(root, "img/pic.png", AttachmentsTest.PNG);
    Path file = write(root, "broken.prompt.md", c.bad());
    write(root, "other.prompt.md", "---\ndescription: d\n---\nfine\n");

    try (Library library = load(root)) {
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("other");
      assertThat(errors(library)).containsExactly(file + c.error());
    }
    assertThat(Linter.check(List.of(root)))
        .filteredOn(Diagnostic::isError)
        .extracting(Diagnostic::format)
        .containsExactly(file + c.error());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void anEditThatAddsAnErrorKeepsTheLastGoodVersionUntilItIsFixed(Case c) throws IOException {
    write(root, "img/pic.png", AttachmentsTest.PNG);
    Path file = write(root, "broken.prompt.md", c.good());
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      library.watch();
      assertThat(body(library)).isEqualTo(c.goodText());

      write(root, "broken.prompt.md", c.bad());
      eventually(() -> !errors(library).isEmpty());
      assertThat(body(library)).isEqualTo(c.goodText());
      assertThat(errors(library)).containsExactly(file + c.error());
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .contains(file
              + ":1: warning: serving the last version that loaded until the errors are fixed");

      write(root, "broken.prompt.md", c.fixed());
      eventually(() -> body(library).equals(c.fixedText()));
      assertThat(errors(library)).isEmpty();
    }
  }

  @Test
  void anAttachedFileDeletedWhileServingKeepsTheLastGoodVersion() throws IOException {
    write(root, "img/pic.png", AttachmentsTest.PNG);
    Path file = write(root, "broken.prompt.md", picture("img/pic.png", "Look."));
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      library.watch();
      Files.delete(root.resolve("img/pic.png"));
      eventually(() -> !errors(library).isEmpty());
      assertThat(errors(library))
          .containsExactly(file + ":5: error: image 'img/pic.png' does not exist");
      assertThat(body(library)).isEqualTo("Look.");
    }
  }

  @Test
  void warningsDoNotStopAFile() throws IOException {
    write(root, "w.prompt.md", "---\narguments: [unused]\n---\nNo description, an unused one.\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isNotEmpty().noneMatch(Diagnostic::isError);
      assertThat(text(render(library, "w", Map.of()).messages().getFirst()))
          .isEqualTo("No description, an unused one.");
    }
  }

  private static String body(Library library) {
    return library.catalog().get("broken").isEmpty()
        ? "<absent>"
        : text(render(library, "broken", Map.of()).messages().getFirst());
  }

  private static String haiku(String body) {
    return """
        ---
        description: a haiku
        arguments:
          - name: subject
            default: autumn
        ---
        %s
        """.formatted(body);
  }

  private static String picture(String image, String text) {
    return "---\ndescription: a picture\n---\n" + text + "\n::: image " + image + "\n";
  }

  private static String language(String fallback, String body) {
    return """
        ---
        description: translate
        arguments:
          - name: lang
            enum: [fr, de]
            default: %s
        ---
        %s
        """.formatted(fallback, body);
  }

  private static String levels(String fallback, String body) {
    return """
        ---
        description: an exercise
        arguments:
          - name: lang
            default: Java
          - name: level
            dependsOn: lang
            default: %s
            enum:
              java: [junior, senior]
              python: [novice, expert]
        ---
        %s
        """.formatted(fallback, body);
  }
}
