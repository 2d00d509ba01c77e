package io.promptd.library;

import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinterTest {
  @TempDir
  Path root;

  @TempDir
  Path second;

  @Test
  void reportsEveryKindOfMistakeAsFileAndLine() throws IOException {
    write(root, "front.prompt.md", "---\ndescription: d\narguments: 3\n---\nx\n");
    write(root, "vars.prompt.md", """
        ---
        description: d
        argumens: typo
        arguments:
          - name: used
          - name: unused
        ---
        {{used}}

        {{#undeclared}}{{other}}{{/undeclared}}
        """);
    write(root, "attach.prompt.md", "---\ndescription: d\n---\n::: image ../../etc/passwd.png\n");
    write(root, "nodesc.prompt.md", "just text\n");
    write(root, "dup.prompt.md", "---\nname: shared\ndescription: d\n---\nx\n");
    write(second, "dup.prompt.md", "---\ndescription: d\nname: shared\n---\nx\n");
    write(root, ".claude/commands/shell.md", "Run !`rm -rf /` now\n");

    List<String> found =
        Linter.check(List.of(root, second)).stream().map(Diagnostic::format).toList();

    assertThat(found)
        .containsExactlyInAnyOrder(
            root.resolve(".claude/commands/shell.md")
                + ":1: warning: shell command !`rm -rf /` is kept as text;"
                + " promptd never runs commands",
            root.resolve("attach.prompt.md")
                + ":4: error: path '../../etc/passwd.png' resolves outside the library root",
            root.resolve("front.prompt.md") + ":3: error: 'arguments' must be a list",
            root.resolve("nodesc.prompt.md")
                + ":1: warning: no description: clients show it next to the prompt's name",
            root.resolve("vars.prompt.md") + ":3: warning: unknown front matter key 'argumens'",
            root.resolve("vars.prompt.md")
                + ":6: warning: argument 'unused' is declared but never used",
            root.resolve("vars.prompt.md")
                + ":8: error: template uses 'undeclared' but no argument 'undeclared' is"
                + " declared",
            root.resolve("vars.prompt.md")
                + ":8: error: template uses 'other' but no argument 'other' is declared",
            second.resolve("dup.prompt.md") + ":3: error: prompt name 'shared' is also claimed by "
                + root.resolve("dup.prompt.md")
                + ", which wins (roots in the order given, then paths in order); this"
                + " file is not served");
  }

  @Test
  void aCleanLibraryHasNothingToSay() throws IOException {
    write(root, "ok.prompt.md", "---\ndescription: d\narguments: [a]\n---\n{{a}}\n");
    assertThat(Linter.check(List.of(root))).isEmpty();
  }

  @Test
  void diagnosticsFormatLikeACompiler() {
    Diagnostic d = Diagnostic.error(Path.of("a/b.prompt.md"), 0, "broken");
    assertThat(d.format()).isEqualTo("a/b.prompt.md:1: error: broken");
    assertThat(Diagnostic.warning(Path.of("x"), 7, "hm").format()).isEqualTo("x:7: warning: hm");
  }

  @Test
  void reportsEveryErrorOfAFileThatCanBeFoundApartFromTheOthers() throws IOException {
    write(root, "many.prompt.md", """
        ---
        title: [not, text]
        elicit: maybe
        arguments:
          - name: ok
          - name: bad name
          - name: n
            type: float
          - name: ok
        tags: {a: b}
        ---
        {{ok}} {{n}}
        """);
    write(
        root,
        "body.prompt.md",
        "---\ndescription: d\narguments: 3\n---\n{{x}}\n::: image missing.png\n");

    List<String> found =
        Linter.check(List.of(root)).stream().map(Diagnostic::format).toList();

    String many = root.resolve("many.prompt.md").toString();
    assertThat(found)
        .containsExactly(
            root.resolve("body.prompt.md") + ":3: error: 'arguments' must be a list",
            root.resolve("body.prompt.md") + ":6: error: image 'missing.png' does not exist",
            many + ":2: error: 'title' must be a string",
            many + ":3: error: 'elicit' must be true or false",
            many + ":6: error: argument name 'bad name' must be 1-64 letters and digits of any"
                + " script, '_' or '-', starting with a letter, digit or '_' (it is used as a"
                + " template variable)",
            many + ":8: error: argument 'n': type 'float' is not one of string, integer, number,"
                + " boolean",
            many + ":9: error: argument 'ok' is declared twice",
            many + ":10: error: 'tags' must be a list of strings");
    try (Library library = Files2.load(root)) {
      assertThat(library.catalog().all()).isEmpty();
    }
  }

  @Test
  void checksASingleFileInTheFolderItIsServedFrom() throws IOException {
    write(root, "a.prompt.md", "---\ndescription: d\n---\n{{x}}\n");
    write(root, "b.prompt.md", "---\ndescription: d\n---\n{{y}}\n");
    write(root, ".claude/commands/team/fix.md", "Run !`ls` now\n");
    write(root, "notes.md", "Just notes\n");

    assertThat(Linter.check(List.of(root.resolve("a.prompt.md"))))
        .extracting(Diagnostic::format)
        .containsExactly(root.resolve("a.prompt.md")
            + ":4: error: template uses 'x' but no argument 'x' is declared");
    assertThat(Linter.check(List.of(root.resolve(".claude/commands/team/fix.md"))))
        .extracting(Diagnostic::format)
        .containsExactly(root.resolve(".claude/commands/team/fix.md")
            + ":1: warning: shell command !`ls` is kept as text; promptd never runs commands");
    assertThat(Linter.check(List.of(root.resolve("notes.md"))))
        .extracting(Diagnostic::format)
        .containsExactly(root.resolve("notes.md") + ":1: warning: not a prompt file: " + NAMES);
  }

  @Test
  void aFolderWithoutPromptFilesIsToldWhichNamesAreRead() throws IOException {
    write(root, "notes.md", "Just notes\n");
    write(root, "docs/readme.md", "More\n");
    write(second, "ok.prompt.md", "---\ndescription: d\n---\nx\n");

    assertThat(Linter.check(List.of(root, second)))
        .extracting(Diagnostic::format)
        .containsExactly(root + ":1: warning: no prompt file found in this folder: " + NAMES
            + " (a plain .md is not)");
  }

  /**
   * What the warnings say promptd reads, in the format registry's order with the native format
   * first.
   */
  private static final String NAMES = "prompt files are named *.prompt.md, .claude/commands/*.md,"
      + " .github/prompts/*.prompt.md, .codex/prompts/*.md, .cursor/commands/*.md,"
      + " .gemini/commands/*.toml, *.prompt, *.prompty";
}
