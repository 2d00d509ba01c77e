package io.promptd.library.parse.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Prompt names. A name set in front matter is used as written; otherwise it is derived from the
 * file's path below its root (or below {@code .claude/commands/}, {@code .github/prompts/}):
 * folders and file name, extension removed, lower-cased, every run of characters other than
 * letters, digits, {@code _} and {@code -} replaced by {@code -}, joined by {@code -}. So
 * {@code git/Commit Message.prompt.md} is {@code git-commit-message} and
 * {@code test_simple_prompt.prompt.md} is {@code test_simple_prompt}: names that work as slash
 * commands.
 */
public final class PromptNames {
  private static final Pattern EXPLICIT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}");
  private static final Pattern OTHER = Pattern.compile("[^a-z0-9_-]+");
  private static final Pattern DASHES = Pattern.compile("-{2,}");
  private static final Pattern EDGES = Pattern.compile("^-+|-+$");

  private PromptNames() {}

  /** The name derived from path segments. */
  public static String derive(List<String> segments) throws ParseException {
    List<String> cleaned = new ArrayList<>();
    for (String segment : segments) {
      String s = segment.toLowerCase(Locale.ROOT);
      if (!clean(s)) {
        s = OTHER.matcher(s).replaceAll("-");
        s = EDGES.matcher(DASHES.matcher(s).replaceAll("-")).replaceAll("");
      }
      if (!s.isEmpty()) {
        cleaned.add(s);
      }
    }
    if (cleaned.isEmpty()) {
      throw new ParseException(
          1, "no prompt name can be derived from the file name; set 'name' in front matter");
    }
    return String.join("-", cleaned);
  }

  /**
   * Whether the three replacements would leave {@code s} as it is: only {@code [a-z0-9_-]}, no
   * {@code --}, no dash at either end. Most segments are; three regular expressions per segment
   * were a visible share of a large load.
   */
  private static boolean clean(String s) {
    if (s.isEmpty() || s.charAt(0) == '-' || s.charAt(s.length() - 1) == '-') {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
      if (!allowed || (c == '-' && s.charAt(i - 1) == '-')) {
        return false;
      }
    }
    return true;
  }

  /** Checks a name written in front matter. */
  public static String explicit(String name, int line) throws ParseException {
    if (!EXPLICIT.matcher(name).matches()) {
      throw new ParseException(
          line,
          "name '" + name + "' must be 1-128 letters, digits, '_', '-', '.' or ':',"
              + " starting with a letter, digit or '_'");
    }
    return name;
  }
}
