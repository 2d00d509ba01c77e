package io.promptd.library.parse.text;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The part of TOML a Gemini CLI command file uses: top-level keys with string values — basic
 * ({@code "…"}), literal ({@code '…'}) and their multi-line forms ({@code """…"""},
 * {@code '''…'''}) — and comments. Other values, dotted keys and tables are reported as warnings
 * and skipped; malformed strings are a {@code file:line} error.
 */
public final class SimpleToml {
  /**
   * A string value.
   *
   * @param line the line its key is on
   * @param textLine the line its text starts on (the next one for a multi-line string opened at a
   *     line's end)
   */
  public record Value(String text, int line, int textLine) {}

  private final String text;
  private final Problems problems;
  private int pos;
  private int line = 1;
  /** Where the text of the value being read starts. */
  private int textLine = 1;

  private SimpleToml(String text, Problems problems) {
    this.text = text;
    this.problems = problems;
  }

  /** The top-level string values of {@code text}, by key, in order. */
  public static Map<String, Value> strings(String text, Problems problems) throws ParseException {
    return new SimpleToml(text, problems).read();
  }

  private Map<String, Value> read() throws ParseException {
    Map<String, Value> out = new LinkedHashMap<>();
    boolean inTable = false;
    while (pos < text.length()) {
      skipBlank();
      if (pos >= text.length()) {
        break;
      }
      char c = text.charAt(pos);
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == '#') {
        skipToLineEnd();
        continue;
      }
      if (c == '[') {
        problems.warning(
            line, "table " + restOfLine().strip() + " is ignored; a command's keys are top-level");
        inTable = true;
        continue;
      }
      int keyLine = line;
      String key = key();
      skipBlank();
      if (pos >= text.length() || text.charAt(pos) != '=') {
        throw new ParseException(keyLine, "expected '=' after key '" + key + "'");
      }
      pos++;
      skipBlank();
      textLine = line;
      String value = stringValue(key);
      if (value != null && !inTable && !key.contains(".")) {
        if (out.putIfAbsent(key, new Value(value, keyLine, textLine)) != null) {
          throw new ParseException(keyLine, "key '" + key + "' is defined twice");
        }
      } else if (value != null) {
        problems.warning(keyLine, "key '" + key + "' is not a top-level key; ignored");
      }
      skipBlank();
      if (pos < text.length() && text.charAt(pos) == '#') {
        skipToLineEnd();
      }
      if (pos < text.length() && text.charAt(pos) != '\n' && text.charAt(pos) != '\r') {
        throw new ParseException(line, "unexpected text after the value of '" + key + "'");
      }
    }
    return out;
  }

  private String key() throws ParseException {
    int start = pos;
    if (text.charAt(pos) == '"' || text.charAt(pos) == '\'') {
      char quote = text.charAt(pos);
      int end = text.indexOf(quote, pos + 1);
      if (end < 0 || text.substring(pos, end).contains("\n")) {
        throw new ParseException(line, "a quoted key does not close");
      }
      pos = end + 1;
      return text.substring(start + 1, end);
    }
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || "_-.".indexOf(text.charAt(pos)) >= 0)) {
      pos++;
    }
    if (pos == start) {
      throw new ParseException(line, "expected a key, found '" + text.charAt(pos) + "'");
    }
    return text.substring(start, pos);
  }

  /** A string value, or null (with a warning) for any other kind of value, which is skipped. */
  private @Nullable String stringValue(String key) throws ParseException {
    if (text.startsWith("\"\"\"", pos)) {
      return multiline("\"\"\"", true);
    }
    if (text.startsWith("'''", pos)) {
      return multiline("'''", false);
    }
    if (pos < text.length() && text.charAt(pos) == '"') {
      int end = pos + 1;
      StringBuilder raw = new StringBuilder();
      while (end < text.length() && text.charAt(end) != '"') {
        if (text.charAt(end) == '\n') {
          throw new ParseException(line, "the string of '" + key + "' does not close on its line");
        }
        if (text.charAt(end) == '\\' && end + 1 < text.length()) {
          raw.append(text, end, end + 2);
          end += 2;
        } else {
          raw.append(text.charAt(end++));
        }
      }
      if (end >= text.length()) {
        throw new ParseException(line, "the string of '" + key + "' does not close");
      }
      pos = end + 1;
      return unescape(raw.toString(), line);
    }
    if (pos < text.length() && text.charAt(pos) == '\'') {
      int end = text.indexOf('\'', pos + 1);
      if (end < 0 || text.substring(pos, end).contains("\n")) {
        throw new ParseException(line, "the string of '" + key + "' does not close on its line");
      }
      String value = text.substring(pos + 1, end);
      pos = end + 1;
      return value;
    }
    String rest = restOfLine().strip();
    if (rest.startsWith("[") && !rest.endsWith("]")) {
      throw new ParseException(line, "key '" + key + "': multi-line arrays are not read here");
    }
    problems.warning(line, "key '" + key + "' is not a string; ignored");
    return null;
  }

  private String multiline(String delimiter, boolean basic) throws ParseException {
    int startLine = line;
    pos += 3;
    if (text.startsWith("\r\n", pos)) {
      pos += 2;
      line++;
    } else if (pos < text.length() && text.charAt(pos) == '\n') {
      pos++;
      line++;
    }
    textLine = line;
    int end = pos;
    while (true) {
      end = text.indexOf(delimiter, end);
      if (end < 0) {
        throw new ParseException(startLine, "a " + delimiter + " string does not close");
      }
      if (basic && escaped(end)) {
        end++;
        continue;
      }
      break;
    }
    int close = end;
    for (int extra = 0;
        extra < 2 && close + 3 < text.length() && text.charAt(close + 3) == delimiter.charAt(0);
        extra++) {
      close++; // up to two quotes before the delimiter belong to the content
    }
    String raw = text.substring(pos, close);
    for (int i = 0; i < raw.length(); i++) {
      if (raw.charAt(i) == '\n') {
        line++;
      }
    }
    pos = close + 3;
    if (!basic) {
      return raw.replace("\r\n", "\n");
    }
    // A backslash at the end of a line joins it to the next, dropping the white space between.
    String joined = raw.replace("\r\n", "\n").replaceAll("\\\\[ \\t]*\\n\\s*", "");
    return unescape(joined, startLine);
  }

  private boolean escaped(int at) {
    int backslashes = 0;
    for (int i = at - 1; i >= 0 && text.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  private static String unescape(String raw, int line) throws ParseException {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (++i >= raw.length()) {
        throw new ParseException(line, "a string ends with a lone backslash");
      }
      char e = raw.charAt(i);
      switch (e) {
        case 'b' -> out.append('\b');
        case 't' -> out.append('\t');
        case 'n' -> out.append('\n');
        case 'f' -> out.append('\f');
        case 'r' -> out.append('\r');
        case 'e' -> out.append('\u001b');
        case '"' -> out.append('"');
        case '\\' -> out.append('\\');
        case 'u', 'U' -> {
          int digits = e == 'u' ? 4 : 8;
          if (i + digits > raw.length() - 1) {
            throw new ParseException(line, "a \\" + e + " escape needs " + digits + " hex digits");
          }
          String hex = raw.substring(i + 1, i + 1 + digits);
          int cp;
          try {
            cp = Integer.parseInt(hex, 16);
          } catch (NumberFormatException ex) {
            throw new ParseException(line, "a \\" + e + " escape needs " + digits + " hex digits");
          }
          if (!Character.isValidCodePoint(cp) || (cp >= 0xD800 && cp <= 0xDFFF)) {
            throw new ParseException(line, "\\" + e + hex + " is not a Unicode scalar value");
          }
          out.appendCodePoint(cp);
          i += digits;
        }
        default -> throw new ParseException(line, "unknown escape \\" + e + " in a string");
      }
    }
    return out.toString();
  }

  private void skipBlank() {
    while (pos < text.length()
        && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t' || text.charAt(pos) == '\r')) {
      pos++;
    }
  }

  private void skipToLineEnd() {
    while (pos < text.length() && text.charAt(pos) != '\n') {
      pos++;
    }
  }

  private void newline() {
    pos++;
    line++;
  }

  /** The rest of this line, up to (not including) its newline. */
  private String restOfLine() {
    int start = pos;
    skipToLineEnd();
    return text.substring(start, pos);
  }
}
