package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.prompt;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.server.ArgumentCompleter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class TypedArgumentsTest {
  @TempDir
  Path root;

  Library library;

  @BeforeEach
  void writeLibrary() {
    write(root, "t.prompt.md", """
        ---
        description: typed
        arguments:
          - name: lang
            enum: [Java, Python, Go]
            default: Java
          - name: framework
            dependsOn: lang
            examples:
              Java: [JUnit 5, TestNG, jqwik]
              Python: [pytest, unittest]
              "*": [generic]
          - name: level
            dependsOn: lang
            enum:
              java: [junior, senior]
              python: [novice, expert]
          - name: count
            type: integer
            default: "3"
          - name: ratio
            type: number
          - name: verbose
            type: boolean
            default: false
          - name: ticket
            pattern: "[A-Z]+-[0-9]+"
            examples: [ABC-1, ABD-22, XYZ-9]
        ---
        {{lang}}|{{framework}}|{{level}}|{{count}}|{{ratio}}|{{#verbose}}verbose{{/verbose}}{{^verbose}}quiet{{/verbose}}|{{ticket}}
        """);
    library = load(root);
  }

  @AfterEach
  void close() {
    library.close();
  }

  @Test
  void defaultsFillMissingArgumentsAndEnumsNormalizeCase() {
    assertThat(text(render(library, "t", Map.of()).messages().getFirst()))
        .isEqualTo("Java|||3||quiet|");
    assertThat(text(render(
                library,
                "t",
                Map.of(
                    "lang", "python", "level", "EXPERT", "verbose", "TRUE", "ratio", "-1.5e3",
                    "ticket", "AB-12", "count", "42"))
            .messages()
            .getFirst()))
        .isEqualTo("Python||expert|42|-1.5e3|verbose|AB-12");
    assertThat(library.diagnostics()).isEmpty();
  }

  @Test
  void wrongValuesAreInvalidParamsNamingArgumentAndRule() {
    assertInvalid(
        Map.of("lang", "Cobol"),
        "prompt 't': argument 'lang' must be one of Java, Python, Go, not 'Cobol'");
    assertInvalid(
        Map.of("count", "3.5"), "prompt 't': argument 'count' must be an integer, not '3.5'");
    assertInvalid(
        Map.of("ratio", "NaN"), "prompt 't': argument 'ratio' must be a number, not 'NaN'");
    assertInvalid(
        Map.of("verbose", "yes"),
        "prompt 't': argument 'verbose' must be true or false, not 'yes'");
    assertInvalid(
        Map.of("ticket", "abc-1"),
        "prompt 't': argument 'ticket' must match the pattern [A-Z]+-[0-9]+, not 'abc-1'");
    assertInvalid(
        Map.of("level", "expert"),
        "prompt 't': argument 'level' must be one of junior, senior when 'lang' is 'Java', not 'expert'");
  }

  /**
   * Prompt files are untrusted: a pattern that backtracks catastrophically must not hold the
   * server. Unbounded, (.*a){20} on 24 a's and a b took 0.8 s here, and the time grows steeply with
   * each a (40 would be years); bounded, the value is refused at once, saying why. A linear pattern
   * on a value of 240,000 characters stays within its budget.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aPatternThatBacktracksWithoutEndIsCutShortAndSaysSo() {
    write(root, "slow.prompt.md", """
        ---
        description: a pattern with nested quantifiers
        arguments:
          - name: word
            pattern: "(.*a){20}"
          - name: text
            pattern: "[a-z ]*"
        ---
        {{word}}{{text}}
        """);
    try (Library slow = load(root)) {
      assertThatThrownBy(() -> render(slow, "slow", Map.of("word", "a".repeat(40) + "b")))
          .isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
            assertThat(e.getMessage())
                .isEqualTo("prompt 'slow': argument 'word' could not be checked against the"
                    + " pattern (.*a){20} (the pattern backtracks too much on this value of 41 characters; the prompt file's"
                    + " author can simplify it)");
          });
      String longText = "lorem ipsum ".repeat(20_000) + "end";
      assertThat(text(render(slow, "slow", Map.of("text", longText)).messages().getFirst()))
          .isEqualTo(longText);
    }
  }

  private void assertInvalid(Map<String, String> arguments, String message) {
    assertThatThrownBy(() -> render(library, "t", arguments))
        .isInstanceOfSatisfying(McpException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
          assertThat(e.getMessage()).isEqualTo(message);
        });
  }

  @Test
  void completesFromEnumAndExamplesByCaseInsensitivePrefix() {
    ArgumentCompleter completer = prompt(library, "t").completer();
    assertThat(completer).isNotNull();
    assertThat(completer.complete("lang", "", Map.of()))
        .isEqualTo(Completion.of(List.of("Java", "Python", "Go")));
    assertThat(completer.complete("lang", "py", Map.of()).values()).containsExactly("Python");
    assertThat(completer.complete("ticket", "ab", Map.of()).values())
        .containsExactly("ABC-1", "ABD-22");
    assertThat(completer.complete("count", "", Map.of())).isEqualTo(Completion.EMPTY);
  }

  @Test
  void completionIsNarrowedByTheArgumentItDependsOn() {
    ArgumentCompleter completer = prompt(library, "t").completer();
    assertThat(completer).isNotNull();
    assertThat(completer.complete("framework", "", Map.of("lang", "java")).values())
        .containsExactly("JUnit 5", "TestNG", "jqwik");
    assertThat(completer.complete("framework", "j", Map.of("lang", "Java")).values())
        .containsExactly("JUnit 5", "jqwik");
    assertThat(completer.complete("framework", "", Map.of("lang", "Go")).values())
        .containsExactly("generic");
    assertThat(completer.complete("framework", "", Map.of()).values())
        .containsExactly("JUnit 5", "TestNG", "jqwik", "pytest", "unittest", "generic");
    assertThat(completer.complete("level", "", Map.of("lang", "Python")).values())
        .containsExactly("novice", "expert");
  }

  @Test
  void badDeclarationsAreLoadErrors(@TempDir Path other) {
    write(
        other,
        "a.prompt.md",
        "---\ndescription: d\narguments:\n  - name: n\n    type: integer\n    default: x\n---\n{{n}}");
    write(
        other,
        "b.prompt.md",
        "---\ndescription: d\narguments:\n  - name: n\n    type: date\n---\n{{n}}");
    write(
        other,
        "c.prompt.md",
        "---\ndescription: d\narguments:\n  - name: n\n    pattern: '['\n---\n{{n}}");
    write(
        other,
        "d.prompt.md",
        "---\ndescription: d\narguments:\n  - name: n\n    dependsOn: m\n---\n{{n}}");
    write(
        other,
        "e.prompt.md",
        "---\ndescription: d\narguments:\n  - name: n\n  - name: n\n---\n{{n}}");
    write(other, "f.prompt.md", "---\ndescription: d\narguments:\n  - name: a.b\n---\nx");
    try (Library bad = load(other)) {
      assertThat(bad.catalog().size()).isZero();
      assertThat(Files2.errors(bad))
          .containsExactly(
              other.resolve("a.prompt.md")
                  + ":6: error: argument 'n': default must be an integer, not 'x'",
              other.resolve("b.prompt.md")
                  + ":5: error: argument 'n': type 'date' is not one of string, integer, number,"
                  + " boolean",
              other.resolve("c.prompt.md")
                  + ":5: error: argument 'n': invalid pattern: Unclosed character class",
              other.resolve("d.prompt.md")
                  + ":4: error: argument 'n': dependsOn 'm' must name another declared argument",
              other.resolve("e.prompt.md") + ":5: error: argument 'n' is declared twice",
              other.resolve("f.prompt.md")
                  + ":4: error: argument name 'a.b' must be 1-64 letters and digits of any"
                  + " script, '_' or '-', starting with a letter, digit or '_' (it is used as a"
                  + " template variable)");
    }
  }
}
