package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** Every exit status the command line has (and the launcher's 3) is explained there. */
  @Test
  void theExitCodesAreEveryStatusTheCodeHas() throws Exception {
    String text = Files.readString(DocLines.DOCS.resolve("cli.md"), UTF_8);
    int at = text.indexOf("\n## Exit codes\n");
    assertThat(at).isNotNegative();
    String codes = text.substring(at, text.indexOf("\n## ", at + 1));
    Set<Integer> statuses = new TreeSet<>(Set.of(3)); // the launcher's: no JDK, build failed
    for (Field f : Main.class.getDeclaredFields()) {
      if (f.getType() == int.class
          && Modifier.isStatic(f.getModifiers())
          && Modifier.isFinal(f.getModifiers())) {
        f.setAccessible(true);
        statuses.add(f.getInt(null));
      }
    }
    Set<Integer> documented = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)(?:^|· )(\\d+) ").matcher(codes);
    while (m.find()) {
      documented.add(Integer.parseInt(m.group(1)));
    }
    assertThat(documented).as("the exit codes docs/cli.md explains").isEqualTo(statuses);
  }
}
