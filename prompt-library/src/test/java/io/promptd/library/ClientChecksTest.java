package io.promptd.library;

import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code promptd check --clients}: what each known client will do with each prompt. */
class ClientChecksTest {
  @TempDir
  Path root;

  private static void png(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, AttachmentsTest.PNG);
  }

  private List<String> check(Path... paths) throws IOException {
    return Linter.check(List.of(paths), true).stream().map(Diagnostic::format).toList();
  }

  @Test
  void aPromptOfOneTextMessageAndNoArgumentsDrawsNoWarning() throws IOException {
    write(root, "plain.prompt.md", "---\ndescription: d\n---\nSay hello.\n");
    assertThat(check(root)).isEmpty();
    assertThat(Linter.check(List.of(root))).isEmpty();
  }

  @Test
  void eachClientLimitIsAWarningAtTheLineItConcerns() throws IOException {
    png(root.resolve("assets/p.png"));
    write(root, "brand.prompt.md", """
        ---
        description: d
        arguments:
          - name: styles
            description: s
            required: true
          - name: level
            description: l
            enum: [AA, AAA]
        ---
        Check {{styles}} at {{level}}.
        ::: image assets/p.png
        ::: assistant
        I will.
        """);
    String file = root.resolve("brand.prompt.md").toString();

    assertThat(check(root))
        .containsExactly(
            file + ":4: warning: Claude Code 2.1.332 splits the words typed after the command at"
                + " white space (U+3000 too), one word per argument in order: a value typed for"
                + " 'styles' is cut to its first word; promptd shows it in its form for checking",
            file + ":7: warning: opencode 1.18.33 puts the typed words into the rendered text"
                + " itself, unchecked: the rules of 'level' (type, choices, pattern) are not"
                + " enforced there",
            file + ":7: warning: Zed (from its source, not run here) offers only prompts of at"
                + " most one argument: this one, of 2, is not offered there",
            file + ":12: warning: Gemini CLI 0.61.0 and Qwen Code 0.24.4 use only the first"
                + " message of a prompt, and only when it is text: promptd folds this prompt of 3"
                + " messages into one text message for them (images, audio and links as one-line"
                + " references; fold: never turns this off)",
            file + ":14: warning: Claude Code 2.1.332 sends every message of a prompt as the"
                + " user's: this assistant message reaches its model as user text");
    assertThat(Linter.check(List.of(root))).as("only with the flag").isEmpty();
  }

  @Test
  void withFoldNeverTheLostMessagesAreSaidAndAPromptWithoutFreeTextIsNotCut() throws IOException {
    write(root, "two.prompt.md", """
        ---
        description: d
        fold: never
        arguments:
          - name: count
            description: c
            type: integer
        ---
        First {{count}}.
        ::: user
        Second.
        """);
    write(root, "image-first.prompt.md", """
        ---
        description: d
        fold: never
        ---
        ::: image p.png
        Then text.
        """);
    png(root.resolve("p.png"));

    assertThat(check(root))
        .containsExactly(
            root.resolve("image-first.prompt.md") + ":5: warning: Gemini CLI 0.61.0 and Qwen Code"
                + " 0.24.4 use only the first message of a prompt, and only when it is text: with"
                + " fold: never this prompt of 2 messages, the first not text, is refused there as"
                + " an empty prompt",
            root.resolve("two.prompt.md") + ":5: warning: opencode 1.18.33 puts the typed words"
                + " into the rendered text itself, unchecked: the rules of 'count' (type, choices,"
                + " pattern) are not enforced there",
            root.resolve("two.prompt.md") + ":11: warning: Gemini CLI 0.61.0 and Qwen Code 0.24.4"
                + " use only the first message of a prompt, and only when it is text: with fold:"
                + " never this prompt of 2 messages reaches their model as its first message"
                + " only");
  }

  @Test
  void aNameAClientTakesForItsOwnCommandAndANameInAnotherScriptAreSaid() throws IOException {
    write(root, "review.prompt.md", "---\ndescription: d\n---\nReview.\n");
    write(root, "help.prompt.md", "---\ndescription: d\n---\nHelp.\n");
    write(root, "翻訳.prompt.md", "---\ndescription: d\n---\n訳して。\n");

    assertThat(check(root))
        .containsExactly(
            root.resolve("help.prompt.md") + ":1: warning: Gemini CLI 0.61.0 has a /help of its"
                + " own: it keeps /help for its own command and offers the prompt as /promptd.help"
                + " (a name: in the front matter renames the prompt)",
            root.resolve("review.prompt.md") + ":1: warning: Qwen Code 0.24.4 has a /review of"
                + " its own: its bundled /review skill takes the name, and the prompt is not"
                + " offered as /review (a name: in the front matter renames the prompt)",
            root.resolve("翻訳.prompt.md") + ":1: warning: Claude Code 2.1.332 stops matching its"
                + " command menu at the first character of another script than Latin typed after"
                + " the server's prefix: pick '翻訳' from the menu, or type the whole command");
  }

  @Test
  void aSingleFileGetsItsOwnClientWarningsOnly() throws IOException {
    write(root, "help.prompt.md", "---\ndescription: d\n---\nHelp.\n");
    write(root, "review.prompt.md", "---\ndescription: d\n---\nReview.\n");

    assertThat(check(root.resolve("help.prompt.md")))
        .singleElement()
        .asString()
        .startsWith(root.resolve("help.prompt.md") + ":1: warning: Gemini CLI 0.61.0 has a /help");
  }
}
