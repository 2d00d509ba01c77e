package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md's reference of every command and option is what {@code promptd --help} prints, so it
 * cannot drift from the code. {@code -Ddocs.update=true} rewrites it from the code.
 */
class CliReferenceDocTest {
  private static final String HEADING = "## Every command and option";

  @Test
  void theReferenceIsWhatHelpPrints() throws Exception {
    Path doc = DocLines.DOCS.resolve("cli.md");
    if (Boolean.getBoolean("docs.update")) {
      String text = Files.readString(doc, UTF_8);
      String old = DocLines.block("cli.md", HEADING, "text");
      int at =
          text.indexOf("```text\n", text.indexOf("\n" + HEADING + "\n")) + "```text\n".length();
      Files.writeString(
          doc, text.substring(0, at) + Main.USAGE_TEXT + text.substring(at + old.length()), UTF_8);
    }
    assertThat(DocLines.block("cli.md", HEADING, "text"))
        .as("docs/cli.md's reference (rewrite it with -Ddocs.update=true)")
        .isEqualTo(Main.USAGE_TEXT);
  }
}
