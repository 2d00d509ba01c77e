package io.promptd.library.parse.format;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.library.parse.template.Speaker;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.SimpleToml;
import io.promptd.mcp.protocol.Prompt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Gemini CLI custom commands ({@code .gemini/commands/**}{@code /*.toml}; {@code git/commit.toml}
 * is Gemini's {@code /git:commit}, promptd's {@code git-commit}). {@code prompt} (required) is the
 * text, {@code description} the description (else the prompt's first line). {@code {{args}}} is
 * replaced by one optional argument {@code args}; without it, given arguments are added after the
 * prompt, after a blank line, as Gemini CLI does. {@code !{…}} shell commands and {@code @{…}} file
 * injections are kept as text and reported by lint; other keys are reported and ignored.
 */
final class GeminiCommandFormat implements PromptFormat {
  private static final Home HOME = new Home(".gemini", "commands");
  private static final Pattern ARGS = Pattern.compile("\\{\\{args}}");
  private static final Pattern SHELL = Pattern.compile("!\\{[^}\\n]*}");
  private static final Pattern INJECT = Pattern.compile("@\\{[^}\\n]*}");

  GeminiCommandFormat() {}

  @Override
  public String name() {
    return "gemini";
  }

  @Override
  public Home home() {
    return HOME;
  }

  @Override
  public String extension() {
    return ".toml";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return lowerName.endsWith(".toml") ? ".toml" : null;
  }

  @Override
  public @Nullable String toNative(PromptFile file, String original, List<String> notes) {
    return NativeText.placeholders(file, notes);
  }

  @Override
  public PromptFile parse(Source source, Parsing parsing) throws ParseException {
    Problems problems = parsing.problems();
    Map<String, SimpleToml.Value> toml = SimpleToml.strings(source.text(), problems);
    SimpleToml.Value prompt = toml.get("prompt");
    if (prompt == null) {
      throw new ParseException(1, "a Gemini CLI command needs 'prompt' (a string)");
    }
    for (Map.Entry<String, SimpleToml.Value> e : toml.entrySet()) {
      if (!e.getKey().equals("prompt") && !e.getKey().equals("description")) {
        problems.warning(
            e.getValue().line(),
            "key '" + e.getKey() + "' is not a Gemini CLI command field; ignored");
      }
    }
    String body = prompt.text();
    int bodyLine = prompt.textLine();
    List<PlaceholderTemplate.Piece> pieces = new ArrayList<>();
    Matcher m = ARGS.matcher(body);
    int last = 0;
    boolean placed = false;
    while (m.find()) {
      pieces.add(new PlaceholderTemplate.Literal(body.substring(last, m.start())));
      pieces.add(new PlaceholderTemplate.Ref("args"));
      last = m.end();
      placed = true;
    }
    pieces.add(new PlaceholderTemplate.Literal(body.substring(last)));
    if (!placed) {
      pieces.add(new PlaceholderTemplate.Appended("args"));
    }
    ForeignFormats.warnAll(
        SHELL,
        body,
        bodyLine,
        problems,
        "shell command %s is kept as text; promptd never runs commands");
    ForeignFormats.warnAll(
        INJECT,
        body,
        bodyLine,
        problems,
        "file injection %s is kept as text; promptd never reads referenced files");
    SimpleToml.Value described = toml.get("description");
    String description = described != null && !described.text().isBlank()
        ? described.text()
        : ForeignFormats.firstLine(body);
    String name = PromptNames.derive(source.match().nameSegments());
    List<ArgumentSpec> arguments = List.of(ArgumentSpec.simple(
        "args",
        placed
            ? "the text after the command ({{args}})"
            : "text after the command; added after the prompt",
        false,
        1));
    Prompt p = new Prompt(
        name,
        null,
        description,
        arguments.stream().map(ArgumentSpec::toProtocol).toList(),
        List.of(),
        null);
    return new PromptFile(
        source.file(),
        source.root(),
        1,
        p,
        arguments,
        body.isBlank()
            ? List.of()
            : List.of(new Part.Text(Speaker.USER, new PlaceholderTemplate(pieces), bodyLine)),
        null,
        true);
  }
}
