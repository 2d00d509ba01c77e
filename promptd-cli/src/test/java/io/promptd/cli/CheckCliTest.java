package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd check} as a user runs it: every error of a file, single files, folders that hold
 * no prompt.
 */
class CheckCliTest {
  /** The start of the list of the files promptd reads, as the warnings give it. */
  private static final String NAMES = "prompt files are named *.prompt.md, .claude/commands/*.md, ";

  @TempDir
  Path dir;

  @Test
  void everyErrorOfAFileIsReportedWithItsLine() throws Exception {
    Path file = dir.resolve("two.prompt.md");
    Files.writeString(file, "---\ndescription: d\nelicit: maybe\ntags: {a: b}\n---\nHi\n");
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(r.status()).isEqualTo(Main.CHECK_FAILED);
    assertThat(r.out())
        .isEqualTo(file + ":3: error: 'elicit' must be true or false\n"
            + file + ":4: error: 'tags' must be a list of strings\n"
            + "2 error(s), 0 warning(s)\n");
  }

  @Test
  void withClientsTheExamplesAreToldWhatEachKnownClientWillDoWithThem() throws Exception {
    Path examples = Path.of(System.getProperty("promptd.root", ".."))
        .resolve("examples/prompts")
        .toAbsolutePath()
        .normalize();
    CliProcessTest.Result plain = CliProcessTest.run(List.of("check", examples.toString()), "");
    assertThat(plain.status()).as(plain.err()).isZero();
    assertThat(plain.out()).isEqualTo("0 error(s), 0 warning(s)\n");

    CliProcessTest.Result r =
        CliProcessTest.run(List.of("check", "--clients", examples.toString()), "");
    assertThat(r.status()).as("warnings only: " + r.err()).isZero();
    assertThat(r.out())
        .contains(examples.resolve("brand-colors.prompt.md")
            + ":11: warning: Gemini CLI 0.61.0 and Qwen Code 0.24.4 use only the first message of a"
            + " prompt, and only when it is text: promptd folds this prompt of 3 messages into one")
        .contains(examples.resolve("review.prompt.md")
            + ":1: warning: Qwen Code 0.24.4 has a /review of its own")
        .contains(examples.resolve("translate.prompt.md")
            + ":6: warning: Claude Code 2.1.332 splits the words typed after the command at white"
            + " space (U+3000 too), one word per argument in order: a value typed for 'text' is cut"
            + " to its first word; promptd shows it in its form for checking")
        .contains(examples.resolve("translate.prompt.md")
            + ":9: warning: opencode 1.18.33 puts the typed words into the rendered text itself,"
            + " unchecked: the rules of 'language', 'tone' (type, choices, pattern) are not"
            + " enforced there")
        .containsPattern("\n0 error\\(s\\), [1-9][0-9]* warning\\(s\\)\n$");
    // docs/clients.md shows these lines as this run gives them.
    String doc = Files.readString(examples.resolve("../../docs/clients.md").normalize());
    String heading = "## What each client will do with your prompts: `promptd check --clients`";
    int block = doc.indexOf("```text\n", doc.indexOf(heading)) + "```text\n".length();
    List<String> shown = doc.substring(block, doc.indexOf("```", block)).lines().toList();
    assertThat(shown).hasSize(4);
    for (String line : shown) {
      assertThat(r.out()).contains(line.replace("…/", examples + "/"));
    }
    CliProcessTest.Result bad =
        CliProcessTest.run(List.of("check", "--client", examples.toString()), "");
    assertThat(bad.status()).isEqualTo(Main.USAGE);
    assertThat(bad.err()).contains("unknown option '--client'");
  }

  @Test
  void aFileNestedThousandsDeepIsNamedWithItsLine() throws Exception {
    Path file = dir.resolve("deep.prompt.md");
    Files.writeString(
        file, "---\ndescription: d\na: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n---\nx\n");
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: d\n---\nHi\n");
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Main.CHECK_FAILED);
    assertThat(r.out())
        .isEqualTo(file + ":3: error: front matter is nested more than 32 levels deep\n"
            + "1 error(s), 0 warning(s)\n");
  }

  @Test
  void aSingleFileIsChecked() throws Exception {
    Path good = dir.resolve("good.prompt.md");
    Files.writeString(good, "---\ndescription: d\n---\nHi\n");
    Files.writeString(dir.resolve("bad.prompt.md"), "---\nelicit: maybe\n---\nHi\n");
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", good.toString()), "");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).isEqualTo("0 error(s), 0 warning(s)\n");
    CliProcessTest.Result missing =
        CliProcessTest.run(List.of("check", dir.resolve("nope.prompt.md").toString()), "");
    assertThat(missing.status()).isEqualTo(Main.USAGE);
    assertThat(missing.err()).contains("no such folder or file: ");
  }

  @Test
  void aFolderOfPlainMarkdownIsToldWhichNamesAreReadByCheckAndByServe() throws Exception {
    Files.writeString(dir.resolve("notes.md"), "Just notes\n");
    CliProcessTest.Result checked = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(checked.status()).isZero();
    assertThat(checked.out())
        .startsWith(dir + ":1: warning: no prompt file found in this folder: " + NAMES)
        .endsWith("0 error(s), 1 warning(s)\n");
    CliProcessTest.Result served =
        CliProcessTest.run(List.of("serve", "--no-watch", dir.toString()), "");
    assertThat(served.status()).as(served.err()).isZero();
    assertThat(served.err())
        .contains("promptd: warning: " + dir + ": no prompt file found in this folder: " + NAMES);
  }

  @Test
  void aBrokenSkillIsReportedAtItsLineBesideGoodPromptsAndSkills() throws Exception {
    Files.writeString(dir.resolve("review.prompt.md"), "---\ndescription: d\n---\nHi\n");
    Files.createDirectories(dir.resolve("ops/good"));
    Files.writeString(
        dir.resolve("ops/good/SKILL.md"), "---\nname: good\ndescription: d\n---\nDo\n");
    Path broken = dir.resolve("ops/broken/SKILL.md");
    Files.createDirectories(broken.getParent());
    Files.writeString(broken, "---\ndescription: d\nname: Broken\n---\nDo\n");
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(r.status()).isEqualTo(Main.CHECK_FAILED);
    assertThat(r.out())
        .isEqualTo(broken + ":3: error: skill name 'Broken' may hold only letters and digits of"
            + " any script, lower-case where the script has case, and '-', e.g. 'broken'\n"
            + "1 error(s), 0 warning(s)\n");
  }

  @Test
  void aFolderOfSkillsOnlyIsNotAFolderWithoutPrompts() throws Exception {
    Files.createDirectories(dir.resolve("good"));
    Files.writeString(dir.resolve("good/SKILL.md"), "---\nname: good\ndescription: d\n---\nDo\n");
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).isEqualTo("0 error(s), 0 warning(s)\n");
  }
}
