package io.promptd.library.parse.format;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.library.parse.template.Speaker;
import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.Scopes;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.mcp.protocol.Prompt;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the Claude Code and VS Code formats share: naming, descriptions, and lint for things promptd
 * never runs.
 */
final class ForeignFormats {
  private static final Pattern SHELL = Pattern.compile("!`[^`\\n]*`");
  /** An {@code @path} file reference (Claude Code, Cursor). */
  static final Pattern FILE_REF = Pattern.compile("(?<![\\w@/.])@[\\w.~-]*[/.][\\w./~-]*");

  private ForeignFormats() {}

  /** The name from front matter {@code name}, else from the path. */
  static String name(Mapping yaml, Source source) throws ParseException {
    String explicit = Fields.string(yaml, "name");
    return explicit != null
        ? PromptNames.explicit(explicit, Fields.line(yaml, "name", 1))
        : PromptNames.derive(source.match().nameSegments());
  }

  /**
   * The description from front matter, else the first non-blank line of the body without Markdown
   * heading marks (as Claude Code does), so every prompt has one.
   */
  static @Nullable String description(Mapping yaml, String body) throws ParseException {
    String explicit = Fields.string(yaml, "description");
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    return firstLine(body);
  }

  /**
   * The first non-blank line of {@code body} without Markdown heading marks, at most 200
   * characters; or null.
   */
  static @Nullable String firstLine(String body) {
    for (String line : body.lines().toList()) {
      String text = line.replaceFirst("^\\s*#+\\s*", "").strip();
      if (!text.isEmpty()) {
        return text.length() <= 200 ? text : text.substring(0, 197) + "...";
      }
    }
    return null;
  }

  /** Warns about {@code !`cmd`} snippets: kept as text, never executed. */
  static void warnShell(String body, int bodyLine, Problems problems) {
    warnAll(
        SHELL,
        body,
        bodyLine,
        problems,
        "shell command %s is kept as text; promptd never runs commands");
  }

  /**
   * Warns for every match of {@code pattern}, with {@code %s} in {@code message} replaced by the
   * match.
   */
  static void warnAll(
      Pattern pattern, String body, int bodyLine, Problems problems, String message) {
    Matcher m = pattern.matcher(body);
    while (m.find()) {
      problems.warning(
          lineAt(body, m.start(), bodyLine), String.format(Locale.ROOT, message, m.group()));
    }
  }

  /** The file line of {@code offset} in {@code body}. */
  static int lineAt(String body, int offset, int bodyLine) {
    int line = bodyLine;
    for (int i = 0; i < offset; i++) {
      if (body.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  /** A single-message prompt. */
  static PromptFile single(
      Source source,
      Mapping yaml,
      String name,
      String body,
      List<ArgumentSpec> arguments,
      PlaceholderTemplate template,
      int bodyLine)
      throws ParseException {
    Prompt prompt = new Prompt(
        name,
        Fields.string(yaml, "title"),
        description(yaml, body),
        arguments.stream().map(ArgumentSpec::toProtocol).toList(),
        List.of(),
        null);
    int nameLine = Fields.line(yaml, "name", 1);
    // promptd's own key: a file that says who may see it must not be served to everyone because its
    // format is foreign.
    return new PromptFile(
        source.file(),
        source.root(),
        nameLine,
        prompt,
        arguments,
        body.isBlank() ? List.of() : List.of(new Part.Text(Speaker.USER, template, bodyLine)),
        Scopes.read(yaml));
  }
}
