package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

  /** docs/cli.md's table of environment variables is {@link EnvironmentVariables#table()}. */
  @Test
  void theEnvironmentTableIsTheCodes() throws Exception {
    Path doc = DocLines.DOCS.resolve("cli.md");
    String text = Files.readString(doc, UTF_8);
    int at = text.indexOf("| variable | sets |\n", text.indexOf("\n## Environment variables\n"));
    assertThat(at).as("docs/cli.md has the environment variables' table").isPositive();
    int end = text.indexOf("\n\n", at) + 1;
    if (Boolean.getBoolean("docs.update")) {
      text = text.substring(0, at) + EnvironmentVariables.table() + text.substring(end);
      Files.writeString(doc, text, UTF_8);
      end = at + EnvironmentVariables.table().length();
    }
    assertThat(text.substring(at, end))
        .as("docs/cli.md's environment variables (rewrite them with -Ddocs.update=true)")
        .isEqualTo(EnvironmentVariables.table());
  }

  /**
   * Every variable the launchers and the code read is in the table: the names in the launcher
   * scripts and every name a main source reads from the environment, but for the scripts' own.
   */
  @Test
  void everyVariableTheProductReadsIsInTheTable() throws Exception {
    Path root = DocLines.DOCS.getParent();
    // Names the scripts set for themselves before reading them (paths, the JDK found, flags).
    Set<String> scripts = Set.of(
        "PROMPTD_APP",
        "PROMPTD_GC",
        "PROMPTD_HEAP",
        "PROMPTD_HOME",
        "PROMPTD_JAVA",
        "PROMPTD_JDK",
        "PROMPTD_JDK_MAJOR",
        "PROMPTD_JDK_VERSION",
        "PROMPTD_JM",
        "PROMPTD_JV",
        "PROMPTD_RESOLVED",
        "PROMPTD_ROOT",
        "PROMPTD_VERSION_FILE");
    Set<String> read = new TreeSet<>();
    List<Path> launchers = List.of(
        root.resolve("promptd"),
        root.resolve("promptd.cmd"),
        root.resolve("bin/jdk.sh"),
        root.resolve("promptd-cli/src/dist/bin/promptd"),
        root.resolve("promptd-cli/src/dist/bin/promptd.cmd"),
        root.resolve("npm/promptd/bin/promptd.js"));
    for (Path launcher : launchers) {
      collect(Files.readString(launcher, UTF_8), Pattern.compile("\\b(PROMPTD_[A-Z0-9_]+)"), read);
    }
    Pattern fromCode = Pattern.compile(
        "(?:getenv|env\\.get|environment\\.get)\\(\"([A-Z_]+)\"\\)|\"(PROMPTD_[A-Z0-9_]+)\"");
    try (Stream<Path> modules = Files.list(root)) {
      for (Path main : modules
          .map(m -> m.resolve("src/main/java"))
          .filter(Files::isDirectory)
          .toList()) {
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            collect(Files.readString(file, UTF_8), fromCode, read);
          }
        }
      }
    }
    read.removeAll(scripts);
    Set<String> listed = new TreeSet<>();
    for (EnvironmentVariables.Variable v : EnvironmentVariables.ALL) {
      listed.addAll(List.of(v.name().split(", ")));
    }
    assertThat(read)
        .as("variables read (XDG_CACHE_HOME, PROMPTD_TOKEN, …)")
        .contains("XDG_CACHE_HOME", "PROMPTD_TOKEN", "PROMPTD_MAX_HEAP", "PROMPTD_GIT_SSH_KEY");
    assertThat(listed).as("docs/cli.md's environment variables").containsAll(read);
  }

  private static void collect(String text, Pattern names, Set<String> into) {
    Matcher m = names.matcher(text);
    while (m.find()) {
      into.add(m.group(1) != null ? m.group(1) : m.group(m.groupCount()));
    }
  }
}
