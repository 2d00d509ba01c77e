package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The pages written for users say what to do: they name no class of the test code and quote no
 * measured median (those belong in docs/engineering/, where the user pages link).
 */
class UserPagesTest {
  private static final Path ROOT = DocLines.DOCS.getParent();

  /** A name of two or more capitalised parts, as class names are (not "Keycloak" or "Safe"). */
  private static final Pattern CLASS_LIKE = Pattern.compile("[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+");

  @Test
  void noUserPageNamesATestClassOrQuotesAMedian() throws Exception {
    Set<String> testClasses = testClasses();
    assertThat(testClasses).as("the test code's classes").contains("UserPagesTest", "DocLines");
    List<String> found = new ArrayList<>();
    for (Path page : userPages()) {
      List<String> lines = Files.readAllLines(page, UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String where = ROOT.relativize(page) + ":" + (i + 1) + ": ";
        Matcher m = CLASS_LIKE.matcher(line);
        while (m.find()) {
          if (testClasses.contains(m.group())) {
            found.add(where + "names the test class " + m.group());
          }
        }
        if (line.toLowerCase(Locale.ROOT).contains("median")) {
          found.add(where + "quotes a median");
        }
      }
    }
    assertThat(found)
        .as("what the user pages say that belongs in docs/engineering/")
        .isEmpty();
  }

  /** README.md in its three languages, docs/*.md and the READMEs the user pages send people to. */
  private static List<Path> userPages() throws Exception {
    List<Path> pages = new ArrayList<>(List.of(
        ROOT.resolve("README.md"),
        ROOT.resolve("README.zh-CN.md"),
        ROOT.resolve("README.ja.md"),
        ROOT.resolve("mcp-client/README.md"),
        ROOT.resolve("prompt-library/README.md")));
    try (Stream<Path> docs = Files.list(DocLines.DOCS)) {
      pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().toList());
    }
    assertThat(pages).as("user pages").hasSizeGreaterThan(15).allMatch(Files::isRegularFile);
    return pages;
  }

  /** The simple names of every class file under the modules' src/test/java. */
  private static Set<String> testClasses() throws Exception {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path tests : modules
          .map(m -> m.resolve("src/test/java"))
          .filter(Files::isDirectory)
          .toList()) {
        try (Stream<Path> files = Files.walk(tests)) {
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.endsWith(".java"))
              .forEach(n -> names.add(n.substring(0, n.length() - ".java".length())));
        }
      }
    }
    return names;
  }
}
