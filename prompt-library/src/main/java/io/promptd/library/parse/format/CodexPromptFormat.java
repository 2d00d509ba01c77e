package io.promptd.library.parse.format;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.YamlNode.Mapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Codex custom prompts ({@code .codex/prompts/*.md}, as in {@code ~/.codex/prompts}). Front matter
 * {@code description} and {@code argument-hint} are read. Placeholders: {@code $1}…{@code $9} are
 * positional arguments (optional, named after the bracketed words of {@code argument-hint}, else
 * {@code arg1}…), {@code $ARGUMENTS} is all of them joined by spaces (or one optional argument
 * {@code arguments} when there are no positional ones), {@code $NAME} in capitals is a named
 * argument (required, as Codex asks for {@code NAME=value}), and {@code $$} is a literal {@code $}.
 */
final class CodexPromptFormat implements PromptFormat {
  private static final Home HOME = new Home(".codex", "prompts");
  private static final Pattern TOKEN =
      Pattern.compile("\\$\\$|\\$ARGUMENTS|\\$([1-9])|\\$([A-Z][A-Z0-9_]{0,63})");

  CodexPromptFormat() {}

  @Override
  public String name() {
    return "codex";
  }

  @Override
  public Home home() {
    return HOME;
  }

  @Override
  public String extension() {
    return ".md";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return PromptFormat.markdownSuffix(lowerName);
  }

  @Override
  public @Nullable String toNative(PromptFile file, String original, List<String> notes) {
    return NativeText.placeholders(file, notes);
  }

  @Override
  public PromptFile parse(Source source, Parsing parsing) throws ParseException {
    Problems problems = parsing.problems();
    FrontMatter fm = FrontMatter.parseLenient(source.text());
    Mapping yaml = fm.yaml();
    String body = fm.body();
    List<Object> tokens = new ArrayList<>(); // String literal, Integer position (0-based), or Named
    Map<String, Integer> named = new LinkedHashMap<>();
    int positional = 0;
    boolean all = false;
    StringBuilder literal = new StringBuilder();
    Matcher m = TOKEN.matcher(body);
    int last = 0;
    while (m.find()) {
      literal.append(body, last, m.start());
      last = m.end();
      if (m.group().equals("$$")) {
        literal.append('$');
        continue;
      }
      tokens.add(literal.toString());
      literal.setLength(0);
      if (m.group(1) != null) {
        int index = Integer.parseInt(m.group(1)) - 1;
        positional = Math.max(positional, index + 1);
        tokens.add(index);
      } else if (m.group(2) != null) {
        named.putIfAbsent(m.group(2), ForeignFormats.lineAt(body, m.start(), fm.bodyLine()));
        tokens.add(new Named(m.group(2)));
      } else {
        all = true;
        tokens.add(new Named(null));
      }
    }
    literal.append(body.substring(last));
    tokens.add(literal.toString());

    String hint = Fields.string(yaml, "argument-hint");
    List<String> names = positional > 0
        ? ClaudeCommandFormat.positionalNames(hint, positional)
        : all ? List.of("arguments") : List.of();
    List<ArgumentSpec> arguments = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      arguments.add(ArgumentSpec.simple(
          names.get(i),
          positional == 0
              ? (hint != null ? hint : "everything after the prompt name")
              : "positional argument " + (i + 1) + " ($" + (i + 1) + ")",
          false,
          1));
    }
    for (Map.Entry<String, Integer> e : named.entrySet()) {
      if (names.contains(e.getKey())) {
        throw new ParseException(
            e.getValue(),
            "named placeholder $" + e.getKey() + " has the name of a positional" + " argument");
      }
      arguments.add(
          ArgumentSpec.simple(e.getKey(), "named argument $" + e.getKey(), true, e.getValue()));
    }
    List<PlaceholderTemplate.Piece> pieces = new ArrayList<>();
    for (Object t : tokens) {
      pieces.add(
          switch (t) {
            case String s -> new PlaceholderTemplate.Literal(s);
            case Integer i -> new PlaceholderTemplate.Ref(names.get(i));
            case Named n when n.name() != null -> new PlaceholderTemplate.Ref(n.name());
            default ->
              positional > 0
                  ? new PlaceholderTemplate.Joined(names)
                  : new PlaceholderTemplate.Ref("arguments");
          });
    }
    ForeignFormats.warnShell(body, fm.bodyLine(), problems);
    return ForeignFormats.single(
        source,
        yaml,
        ForeignFormats.name(yaml, source),
        body,
        arguments,
        new PlaceholderTemplate(pieces),
        fm.bodyLine());
  }

  /** A named placeholder ({@code $FILE}), or {@code $ARGUMENTS} when {@code name} is null. */
  private record Named(@org.jspecify.annotations.Nullable String name) {}
}
