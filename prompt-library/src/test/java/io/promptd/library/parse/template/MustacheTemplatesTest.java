package io.promptd.library.parse.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Templates of plain variables are compiled on first render, and render exactly as a full compile
 * does.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MustacheTemplatesTest {
  @Test
  void onlyPlainVariableTagsTakeTheDeferredPath() {
    assertThat(MustacheTemplates.simpleTags("no tags at all")).isEmpty();
    assertThat(MustacheTemplates.simpleTags("Review {{ level }} and {{code}}; {{x.y}} {{-first}}"))
        .containsExactly("level", "code", "x.y", "-first");
    assertThat(MustacheTemplates.simpleTags("stray }} and { braces {x}")).isEmpty();
    for (String other : List.of(
        "{{#s}}x{{/s}}",
        "{{^s}}x{{/s}}",
        "{{> p}}",
        "{{! c}}",
        "{{{raw}}}",
        "{{&raw}}",
        "{{=<% %>=}}",
        "{{}}",
        "{{a b}}",
        "{{a",
        "{{a\n}}")) {
      assertThat(MustacheTemplates.simpleTags(other)).as(other).isNull();
    }
  }

  @Test
  void aDeferredTemplateRendersAsTheFullCompileAndFindsTheSameVariables() throws ParseException {
    Map<String, Object> values = Map.of("level", "high", "code", "x = {{y}}", "x", "X");
    for (String source : List.of(
        "plain",
        "Review {{ level }}:\n{{code}}\n}}",
        "{{x.y}} and {{missing}}",
        "{{level}}{{level}}")) {
      Map<String, Integer> deferredVars = new LinkedHashMap<>();
      Problems deferredProblems = new Problems(Path.of("f"));
      String deferred =
          templates().compile(source, 3, deferredVars, deferredProblems).render(values);
      // A section around the same text forces the full compile; it renders nothing else.
      Map<String, Integer> fullVars = new LinkedHashMap<>();
      Problems fullProblems = new Problems(Path.of("f"));
      String full = templates()
          .compile("{{#level}}" + source + "{{/level}}", 3, fullVars, fullProblems)
          .render(values);
      assertThat(deferred).as(source).isEqualTo(full);
      fullVars.remove("level");
      deferredVars.remove("level");
      assertThat(deferredVars).as(source).isEqualTo(fullVars);
      assertThat(deferredProblems.all()).as(source).isEqualTo(fullProblems.all());
    }
  }

  /**
   * Mustache compiles a dotted name with an empty part and then fails on it at every render with an
   * index error (PromptFileFuzzTest's input "{{...}}"): such a tag is a template error at load, on
   * both paths, and a name with proper dots still renders.
   */
  @Test
  void aDottedNameWithAnEmptyPartIsATemplateErrorNotARenderCrash() throws ParseException {
    for (String name : List.of("...", "..", "a..b", ".a", "a.", "x.y.")) {
      for (String source : List.of(
          "{{" + name + "}}",
          "{{#s}}{{" + name + "}}{{/s}}",
          "{{#" + name + "}}x{{/" + name + "}}")) {
        assertThatThrownBy(() ->
                templates().compile(source, 4, new LinkedHashMap<>(), new Problems(Path.of("f"))))
            .as(source)
            .isInstanceOfSatisfying(ParseException.class, e -> {
              assertThat(e.line()).isEqualTo(4);
              assertThat(e.getMessage())
                  .isEqualTo("template error: '{{" + name + "}}' is not a name (a dotted name"
                      + " needs a name before, between and after its dots)");
            });
      }
    }
    for (String fine : List.of("{{.}}", "{{x.y}}", "{{#s}}{{.}}{{/s}}")) {
      assertThat(templates()
              .compile(fine, 1, new LinkedHashMap<>(), new Problems(Path.of("f")))
              .render(Map.of("x", "X", "s", List.of("a"))))
          .as(fine)
          .isNotNull();
    }
  }

  private static MustacheTemplates templates() {
    Root root = new Root(Path.of("/nonexistent"), Path.of("/nonexistent"), 0);
    return new MustacheTemplates(root, 1 << 20, new HashSet<>(), FileAccess.FOLDER);
  }
}
