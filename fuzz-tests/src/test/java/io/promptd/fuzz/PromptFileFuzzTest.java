package io.promptd.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.library.LibraryFiles;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.library.parse.template.UriTemplate;
import io.promptd.library.parse.text.ParseException;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.PromptDefinition;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * Prompt files (front matter, templates, partials, resource files) and URI templates from any text:
 * a prompt, or diagnostics that name the file and a line; rendering with any argument values:
 * messages, or a -32602.
 */
class PromptFileFuzzTest {
  private static final LibraryOptions OPTIONS = LibraryOptions.defaults();

  /**
   * The input is up to four parts split by NUL: the prompt file, a partial, a resource file, an
   * argument value.
   */
  @FuzzTest(maxDuration = "10m")
  void promptFile(byte[] input) throws Exception {
    String[] parts = (new String(input, UTF_8) + "\0\0\0").split("\0", 4);
    String prompt = parts[0];
    String partial = parts[1];
    String resource = parts[2];
    String value = parts[3].replace("\0", "");
    Map<String, byte[]> files = Map.of(
        "f.prompt.md",
        prompt.getBytes(UTF_8),
        "p.md",
        partial.getBytes(UTF_8),
        "r.resource.md",
        resource.getBytes(UTF_8));
    try (Library library =
        Library.open(LibrarySource.snapshot(new LibraryFiles(1, files)), OPTIONS)) {
      checkPrompts(library, "[fpr][.a-z]*", value);
      library.resources().forEach(r -> library.read(r.uri()));
      // A value with '$' or '\\' is text here, not a group reference (the first long run's one
      // finding: this harness).
      String quoted = Matcher.quoteReplacement(value);
      library
          .templates()
          .forEach(t -> library.read(t.uriTemplate().replaceAll("\\{[^}]*}", quoted)));
    }
  }

  /** Where the other formats live, chosen by the input's first byte. */
  private static final String[] OTHER = {
    ".gemini/commands/f.toml",
    "f.prompt",
    "f.prompty",
    ".codex/prompts/f.md",
    ".cursor/commands/f.md",
    ".claude/commands/f.md",
    ".github/prompts/f.prompt.md"
  };

  /**
   * The other formats' parsers and translations (Gemini CLI TOML, Dotprompt, Prompty, Codex,
   * Cursor, Claude Code, VS Code): the first byte picks the format, the rest up to a NUL is the
   * file, what follows an argument value.
   */
  @FuzzTest(maxDuration = "10m")
  void otherFormats(byte[] input) throws Exception {
    if (input.length == 0) {
      return;
    }
    String path = OTHER[(input[0] & 0xFF) % OTHER.length];
    String[] parts = (new String(input, 1, input.length - 1, UTF_8) + "\0").split("\0", 2);
    String value = parts[1].replace("\0", "");
    LibrarySource source =
        LibrarySource.snapshot(new LibraryFiles(1, Map.of(path, parts[0].getBytes(UTF_8))));
    try (Library library = Library.open(source, OPTIONS)) {
      checkPrompts(library, "[./a-z]*f\\.[a-z.]+", value);
    }
  }

  /**
   * Every diagnostic names a file matching {@code files} (a pattern after the snapshot's root) and
   * a line, with a safe message; every prompt renders with {@code value} for each argument, or
   * refuses with -32602/-32603 safely.
   */
  private static void checkPrompts(Library library, String files, String value) throws Exception {
    for (Diagnostic d : library.diagnostics()) {
      assertThat(d.format())
          .matches("(?s)/promptd-store/library/" + files + ":\\d+: (error|warning): .*");
      Safe.message(d.message());
    }
    for (PromptDefinition definition : library.catalog().all()) {
      Map<String, String> arguments = new HashMap<>();
      for (PromptArgument a : definition.prompt().arguments()) {
        arguments.put(a.name(), value);
      }
      try {
        definition.renderer().render(arguments);
      } catch (McpException e) {
        assertThat(e.code()).isIn(-32602, -32603);
        Safe.message(e.getMessage());
      }
    }
  }

  /** The input's first line is the template, the rest the URI matched against it. */
  @FuzzTest(maxDuration = "10m")
  void uriTemplate(byte[] input) {
    String text = new String(input, UTF_8);
    int nl = text.indexOf('\n');
    String template = nl < 0 ? text : text.substring(0, nl);
    String uri = nl < 0 ? "" : text.substring(nl + 1);
    UriTemplate parsed;
    try {
      parsed = UriTemplate.parse(template, 1);
    } catch (ParseException e) {
      Safe.message(e.getMessage());
      return;
    }
    parsed.match(uri).ifPresent(values -> assertThat(values.keySet()).isSubsetOf(parsed.names()));
  }
}
