package io.promptd.library.parse.text;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Prompt and argument names, in any script: letters and digits of every script count, as do the
 * marks that combine with a letter (the vowel signs of Devanagari or Thai). Every name is
 * normalised to NFC, so a name typed on one system and a file name copied from another (macOS
 * writes NFD) are the same name.
 *
 * <p>A name set in front matter is used as written (after NFC); otherwise it is derived from the
 * file's path below its root (or below {@code .claude/commands/}, {@code .github/prompts/}):
 * folders and file name, extension removed, lower-cased, every run of characters other than
 * letters, digits, {@code _} and {@code -} replaced by {@code -}, joined by {@code -}. So
 * {@code git/Commit Message.prompt.md} is {@code git-commit-message}, {@code 翻訳.prompt.md} is
 * {@code 翻訳} and {@code test_simple_prompt.prompt.md} is {@code test_simple_prompt}: names that
 * work as slash commands.
 */
public final class PromptNames {
  /** What a prompt name may hold, as error messages say it. */
  public static final String PROMPT_CHARACTERS =
      "letters and digits of any script, '_', '-', '.' or ':'";

  /** What an argument name may hold, as error messages say it. */
  public static final String ARGUMENT_CHARACTERS = "letters and digits of any script, '_' or '-'";

  private static final Pattern EXPLICIT =
      Pattern.compile("[\\p{L}\\p{Nd}_][\\p{L}\\p{M}\\p{Nd}_.:-]{0,127}");
  private static final Pattern ARGUMENT =
      Pattern.compile("[\\p{L}\\p{Nd}_][\\p{L}\\p{M}\\p{Nd}_-]{0,63}");
  private static final Pattern OTHER = Pattern.compile("[^\\p{L}\\p{M}\\p{Nd}_-]+");
  private static final Pattern DASHES = Pattern.compile("-{2,}");
  private static final Pattern EDGES = Pattern.compile("^-+|-+$");
  /** A mark left at the start of a segment once what it combined with became a dash. */
  private static final Pattern LEADING_MARKS = Pattern.compile("^\\p{M}+");

  private PromptNames() {}

  /** The name derived from path segments. */
  public static String derive(List<String> segments) throws ParseException {
    List<String> cleaned = new ArrayList<>();
    for (String segment : segments) {
      String s = segment.toLowerCase(Locale.ROOT);
      if (!clean(s)) {
        s = nfc(s);
        s = OTHER.matcher(s).replaceAll("-");
        s = EDGES.matcher(DASHES.matcher(s).replaceAll("-")).replaceAll("");
        s = LEADING_MARKS.matcher(s).replaceAll("");
        s = EDGES.matcher(s).replaceAll("");
      }
      if (!s.isEmpty()) {
        cleaned.add(s);
      }
    }
    if (cleaned.isEmpty()) {
      throw new ParseException(
          1,
          "no prompt name can be derived from the file name (it needs a letter or digit of any"
              + " script, '_' or '-'); set 'name' in front matter");
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

  /** Checks a name written in front matter; returns it in NFC. */
  public static String explicit(String name, int line) throws ParseException {
    String n = nfc(name);
    if (!EXPLICIT.matcher(n).matches()) {
      throw new ParseException(
          line,
          "name '" + name + "' must be 1-128 " + PROMPT_CHARACTERS
              + ", starting with a letter, digit or '_'");
    }
    return n;
  }

  /**
   * Whether {@code name} (in NFC) may name an argument: 1-64 {@link #ARGUMENT_CHARACTERS}, starting
   * with a letter, digit or {@code _}; such a name works as a Mustache variable.
   */
  public static boolean isArgumentName(String name) {
    return ARGUMENT.matcher(name).matches();
  }

  /**
   * {@code text} in Unicode normalisation form C; text of ASCII only, which is most names, is
   * returned as it is without a normaliser's pass.
   */
  public static String nfc(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return Normalizer.normalize(text, Normalizer.Form.NFC);
      }
    }
    return text;
  }
}
