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
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.YamlNode.Mapping;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Claude Code commands ({@code .claude/commands/**}{@code /*.md}). Front matter {@code description}
 * and {@code argument-hint} are read; {@code allowed-tools}, {@code model} and the rest are
 * ignored.
 *
 * <p>Arguments: {@code $ARGUMENTS} alone becomes one optional argument {@code arguments}.
 * Positional {@code $N} become optional arguments named after the bracketed words of
 * {@code argument-hint} ({@code [pr-number]}), else {@code arg1}, {@code arg2}, …;
 * {@code $ARGUMENTS} then means all of them joined by spaces. Claude Code's original convention is
 * 1-based ({@code $1} is the first argument); its newer one is 0-based ({@code $0} or
 * {@code $ARGUMENTS[0]} is the first). A file using {@code $0} or {@code $ARGUMENTS[N]} anywhere is
 * read as 0-based, any other as 1-based; front matter {@code argument-base: 0} or {@code 1}
 * overrides the guess.
 *
 * <p>{@code !`cmd`} and {@code @path} are kept as text, never run or read, and reported by lint.
 */
final class ClaudeCommandFormat implements PromptFormat {
  private static final Home HOME = new Home(".claude", "commands");
  private static final Pattern TOKEN =
      Pattern.compile("\\$ARGUMENTS\\[(\\d)]|\\$ARGUMENTS|\\$(\\d)");
  private static final Pattern HINT = Pattern.compile("\\[([^\\]]+)]|<([^>]+)>");

  ClaudeCommandFormat() {}

  @Override
  public String name() {
    return "claude";
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
    boolean zeroBased = zeroBased(yaml, body);
    Tokens tokens = Tokens.scan(body, zeroBased);
    String hint = Fields.string(yaml, "argument-hint");
    List<String> names = tokens.count() > 0
        ? positionalNames(hint, tokens.count())
        : tokens.all() ? List.of("arguments") : List.of();
    List<ArgumentSpec> arguments = new ArrayList<>();
    for (String n : names) {
      int position = arguments.size();
      String description = tokens.count() == 0
          ? (hint != null ? hint : "everything after the command name")
          : "positional argument " + (position + 1) + " ($" + (zeroBased ? position : position + 1)
              + ")";
      arguments.add(ArgumentSpec.simple(n, description, false, 1));
    }
    ForeignFormats.warnShell(body, fm.bodyLine(), problems);
    ForeignFormats.warnAll(
        ForeignFormats.FILE_REF,
        body,
        fm.bodyLine(),
        problems,
        "file reference %s is kept as text; promptd never reads referenced files");
    return ForeignFormats.single(
        source,
        yaml,
        ForeignFormats.name(yaml, source),
        body,
        arguments,
        new PlaceholderTemplate(tokens.pieces(names)),
        fm.bodyLine());
  }

  /**
   * The body cut at each {@code $ARGUMENTS}, {@code $ARGUMENTS[N]} and {@code $N}.
   *
   * @param literals the text between tokens; one more than there are tokens
   * @param positions each token's 0-based argument position, or -1 for {@code $ARGUMENTS}
   * @param count how many positional arguments the tokens imply
   * @param all whether {@code $ARGUMENTS} appears
   */
  private record Tokens(List<String> literals, List<Integer> positions, int count, boolean all) {
    static Tokens scan(String body, boolean zeroBased) {
      List<String> literals = new ArrayList<>();
      List<Integer> positions = new ArrayList<>();
      int count = 0;
      int last = 0;
      Matcher m = TOKEN.matcher(body);
      while (m.find()) {
        literals.add(body.substring(last, m.start()));
        last = m.end();
        int index = m.group(1) != null
            ? Integer.parseInt(m.group(1))
            : m.group(2) != null ? Integer.parseInt(m.group(2)) - (zeroBased ? 0 : 1) : -1;
        positions.add(index);
        count = Math.max(count, index + 1);
      }
      literals.add(body.substring(last));
      return new Tokens(literals, positions, count, positions.contains(-1));
    }

    /** The template pieces, now that the argument names are known. */
    List<PlaceholderTemplate.Piece> pieces(List<String> names) {
      List<PlaceholderTemplate.Piece> pieces = new ArrayList<>();
      for (int i = 0; i < positions.size(); i++) {
        pieces.add(new PlaceholderTemplate.Literal(literals.get(i)));
        int index = positions.get(i);
        pieces.add(
            index >= 0
                ? new PlaceholderTemplate.Ref(names.get(index))
                : count > 0
                    ? new PlaceholderTemplate.Joined(names)
                    : new PlaceholderTemplate.Ref("arguments"));
      }
      pieces.add(new PlaceholderTemplate.Literal(literals.getLast()));
      return pieces;
    }
  }

  private static boolean zeroBased(Mapping yaml, String body) throws ParseException {
    String base = Fields.string(yaml, "argument-base");
    if (base != null) {
      if (!base.equals("0") && !base.equals("1")) {
        throw new ParseException(
            Fields.line(yaml, "argument-base", 1), "'argument-base' must be 0 or 1");
      }
      return base.equals("0");
    }
    return body.contains("$0") || body.contains("$ARGUMENTS[");
  }

  /**
   * Names from the bracketed words of {@code hint}, then {@code argN}, unique, usable as argument
   * names.
   */
  static List<String> positionalNames(@Nullable String hint, int count) {
    List<String> fromHint = new ArrayList<>();
    if (hint != null) {
      Matcher m = HINT.matcher(hint);
      while (m.find()) {
        String word = m.group(1) != null ? m.group(1) : m.group(2);
        fromHint.add(PromptNames.nfc(word.strip())
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{M}\\p{Nd}_-]+", "-")
            .replaceAll("^-+|-+$", ""));
      }
    }
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < count; i++) {
      String candidate = i < fromHint.size() ? fromHint.get(i) : "";
      if (candidate.isEmpty() || !PromptNames.isArgumentName(candidate)) {
        candidate = "arg" + (i + 1);
      }
      while (names.contains(candidate)) {
        candidate = candidate + "_";
      }
      names.add(candidate);
    }
    return new ArrayList<>(names);
  }
}
