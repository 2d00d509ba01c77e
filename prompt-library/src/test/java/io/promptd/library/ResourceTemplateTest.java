package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.ResourceFormatTest.load;
import static io.promptd.library.ResourceFormatTest.read;
import static io.promptd.library.ResourceFormatTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.library.parse.template.UriTemplate;
import io.promptd.library.parse.text.ParseException;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.TextResourceContents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceTemplateTest {
  @TempDir
  Path root;

  @Test
  void theConformanceTemplateRendersTheIdItWasAskedFor() {
    write(root, "data.resource.md", """
        ---
        uriTemplate: test://template/{id}/data
        name: template-data
        description: Data for one id
        mimeType: application/json
        ---
        {"id":"{{id}}","templateTest":true,"data":"Data for ID: {{id}}"}
        """);
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.resources()).isEmpty();
      assertThat(library.templates())
          .containsExactly(ResourceTemplate.of(
              "test://template/{id}/data", "template-data", "Data for one id", "application/json"));
      assertThat(read(library, "test://template/123/data"))
          .isEqualTo(new TextResourceContents(
              "test://template/123/data",
              "application/json",
              "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}",
              null));
      assertThat(library.read("test://template/1/2/data")).isEmpty();
      assertThat(library.read("test://template//data")).isEmpty();
      assertThat(library.read("test://template/123/data/more")).isEmpty();
    }
  }

  @Test
  void valuesArePercentDecodedAndInsertedOnceNeverReadAsTemplateText() {
    write(root, "greet.resource.md", """
        ---
        uriTemplate: greet://{who}/{mood}
        description: d
        ---
        Hello {{who}}, you seem {{mood}}.
        """);
    try (Library library = load(root)) {
      assertThat(text(library, "greet://%7B%7Bmood%7D%7D/happy"))
          .isEqualTo("Hello {{mood}}, you seem happy.");
      assertThat(text(library, "greet://J%C3%BCrgen/a+b")).isEqualTo("Hello Jürgen, you seem a+b.");
      assertThat(text(library, "greet://<b>/x")).isEqualTo("Hello <b>, you seem x.");
      assertThat(library.read("greet://bad%zz/x")).isEmpty();
    }
  }

  @Test
  void aBodyVariableTheUriTemplateLacksIsAnErrorAtItsLine() {
    Path file = write(
        root,
        "t.resource.md",
        "---\nuriTemplate: t://{a}\ndescription: d\n---\nfine {{a}}\n{{b}}\n");
    Path withFile = write(
        root, "f.resource.md", "---\nuriTemplate: f://{a}\ndescription: d\nfile: x.txt\n---\n");
    Path noVars =
        write(root, "n.resource.md", "---\nuriTemplate: n://fixed\ndescription: d\n---\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactlyInAnyOrder(
              file + ":5: error: body uses 'b' but uriTemplate 't://{a}' has no '{b}'",
              withFile
                  + ":4: error: a templated resource takes its contents from its body, not from 'file'",
              noVars
                  + ":2: error: uriTemplate 'n://fixed' has no '{variable}'; use 'uri' for a fixed URI");
      assertThat(library.templates()).isEmpty();
    }
  }

  @Test
  void onlyPlainLevelOneVariablesAreAccepted() {
    assertThatThrownBy(() -> UriTemplate.parse("x://{+path}", 3))
        .isInstanceOf(ParseException.class)
        .hasMessage(
            "uriTemplate 'x://{+path}': '{+path}' must be a plain variable name (letters, digits, '_');"
                + " operators such as '+', '#' or '?' are not supported")
        .extracting(e -> ((ParseException) e).line())
        .isEqualTo(3);
    assertThatThrownBy(() -> UriTemplate.parse("x://{a}/{a}", 1))
        .hasMessageContaining("variable 'a' appears twice");
    assertThatThrownBy(() -> UriTemplate.parse("x://{a", 1)).hasMessageContaining("unpaired");
    assertThatThrownBy(() -> UriTemplate.parse("x://a}/{b}", 1)).hasMessageContaining("unpaired");
  }

  @Test
  void literalPartsAreMatchedLiterally() throws ParseException {
    UriTemplate t = UriTemplate.parse("db://t.a/{table}?v=(1)", 1);
    assertThat(t.names()).isEqualTo(List.of("table"));
    assertThat(t.match("db://t.a/users?v=(1)")).isEqualTo(Optional.of(Map.of("table", "users")));
    assertThat(t.match("db://tXa/users?v=(1)")).isEmpty();
  }
}
