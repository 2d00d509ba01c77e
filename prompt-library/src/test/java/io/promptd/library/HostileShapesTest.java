package io.promptd.library;

import static io.promptd.library.Files2.errors;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.prompt;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompt files shaped to hurt the reader (issue 36's H2 and its kin): each is one clear
 * {@code file:line} error, or is read within the limits, and no thread that reads it dies.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileShapesTest {
  @TempDir
  Path root;

  static String deepFlow(int depth) {
    return "---\ndescription: d\na: " + "[".repeat(depth) + "]".repeat(depth) + "\n---\nx\n";
  }

  @Test
  void frontMatterNestedThousandsDeepIsOneErrorAtItsLine() {
    write(root, "deep.prompt.md", deepFlow(5_000));
    write(
        root,
        "json.prompt.md",
        "---\ndescription: d\n\na: " + "{\"a\": ".repeat(5_000) + "1" + "}".repeat(5_000)
            + "\n---\nx\n");
    write(root, "ok.prompt.md", "---\ndescription: d\n---\nfine\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).extracting(d -> d.name()).containsExactly("ok");
      assertThat(errors(library))
          .containsExactly(
              root.resolve("deep.prompt.md")
                  + ":3: error: front matter is nested more than 32 levels deep",
              root.resolve("json.prompt.md")
                  + ":4: error: front matter is nested more than 32 levels deep");
    }
  }

  @Test
  void theWatcherSurvivesADeepFileAndServesTheNextGoodChange() throws Exception {
    write(root, "a.prompt.md", "---\ndescription: d\n---\nA1\n");
    try (Library library = load(root)) {
      library.watch();
      write(root, "a.prompt.md", deepFlow(5_000));
      Poll.until(
          Duration.ofSeconds(20),
          Duration.ofMillis(10),
          () -> "the deep file's error, in " + errors(library),
          () -> errors(library)
              .equals(List.of(root.resolve("a.prompt.md")
                  + ":3: error: front matter is nested more than 32 levels deep")));
      assertThat(body(library, "a")).as("the last good version stays served").isEqualTo("A1");
      write(root, "a.prompt.md", "---\ndescription: d\n---\nA2\n");
      Poll.until(
          Duration.ofSeconds(20),
          Duration.ofMillis(10),
          () -> "the next good version served",
          () -> body(library, "a").equals("A2"));
      assertThat(errors(library)).isEmpty();
      assertThat(library.feedProblem()).isNull();
    }
  }

  @Test
  void aHundredThousandKeysAreRefused() {
    StringBuilder yaml = new StringBuilder("---\ndescription: d\n");
    for (int i = 0; i < 100_000; i++) {
      yaml.append('k').append(i).append(": 1\n");
    }
    write(root, "keys.prompt.md", yaml + "---\nx\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(errors(library))
          .containsExactly(root.resolve("keys.prompt.md")
              + ":10004: error: front matter has more than 10000 keys and values");
    }
  }

  @Test
  void twentyThousandArgumentsAreRefused() {
    StringBuilder yaml = new StringBuilder("---\ndescription: d\narguments:\n");
    for (int i = 0; i < 20_000; i++) {
      yaml.append("  - name: a").append(i).append('\n');
    }
    write(root, "args.prompt.md", yaml + "---\nx\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(errors(library))
          .singleElement()
          .asString()
          .startsWith(root.resolve("args.prompt.md") + ":")
          .endsWith(": error: front matter has more than 10000 keys and values");
    }
  }

  @Test
  void aScalarOfNineHundredKilobytesIsReadWithinTheLimits() {
    String big = "x".repeat(900_000);
    write(root, "big.prompt.md", "---\ndescription: d\nlong: \"" + big + "\"\n---\nbody\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .noneMatch(d -> d.contains("internal error") || d.contains("nested"));
    }
  }

  @Test
  void pythonObjectTagsAreReadAsTheirText() {
    write(
        root,
        "tag.prompt.md",
        "---\ndescription: !!python/object/apply:os.system [\"id\"]\n---\nx\n");
    write(root, "plain.prompt.md", "---\ndescription: !!python/object:os.system 'id'\n---\nx\n");
    try (Library library = load(root)) {
      assertThat(prompt(library, "plain").prompt().description()).isEqualTo("id");
      assertThat(library.catalog().get("tag")).isEmpty();
      assertThat(errors(library))
          .singleElement()
          .asString()
          .startsWith(root.resolve("tag.prompt.md") + ":2: error:");
    }
  }

  @Test
  void thousandsOfNestedSectionsAreOneErrorAtTheirLine() {
    write(
        root,
        "sections.prompt.md",
        "---\ndescription: d\n---\nfirst line\n" + "{{#a}}\n".repeat(3_000) + "x\n"
            + "{{/a}}\n".repeat(3_000));
    write(
        root,
        "delimited.prompt.md",
        "---\ndescription: d\n---\n{{=<% %>=}}\n" + "<%#a%>".repeat(3_000) + "x"
            + "<%/a%>".repeat(3_000) + "\n");
    write(
        root,
        "fine.prompt.md",
        "---\ndescription: d\narguments:\n  - name: a\n---\n" + "{{#a}}".repeat(64) + "{{a}}"
            + "{{/a}}".repeat(64) + "\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).extracting(d -> d.name()).containsExactly("fine");
      assertThat(errors(library))
          .containsExactly(
              root.resolve("delimited.prompt.md")
                  + ":5: error: template error: sections are nested more than 64 levels deep",
              root.resolve("sections.prompt.md")
                  + ":69: error: template error: sections are nested more than 64 levels deep");
    }
  }

  @Test
  void aBacktrackingPatternCannotHoldARequestThread() {
    write(
        root,
        "redos.prompt.md",
        "---\ndescription: d\narguments:\n  - name: v\n    pattern: \"(.*a){25}\"\n---\n{{v}}\n");
    try (Library library = load(root)) {
      String value = "a".repeat(40) + "b";
      Throwable thrown =
          Assertions.catchThrowable(() -> render(library, "redos", Map.of("v", value)));
      assertThat(thrown)
          .hasMessageContaining("backtracks too much")
          .hasMessageContaining("(.*a){25}");
    }
  }

  private static String body(Library library, String name) {
    return library.catalog().get(name).isEmpty()
        ? ""
        : text(render(library, name, Map.of()).messages().getFirst()).strip();
  }
}
