package io.promptd.library.parse.text;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A prompt file split into its YAML front matter and its body. Front matter is optional; when
 * present it starts with a {@code ---} line on line 1 and ends at the next {@code ---} (or
 * {@code ...}) line.
 *
 * @param yaml the front matter, parsed; empty when there is none
 * @param body the text after the front matter
 * @param bodyLine the 1-based line of the file where the body starts
 */
public record FrontMatter(YamlNode.Mapping yaml, String body, int bodyLine) {
  /** Splits and parses {@code text}; the front matter must be valid YAML. */
  public static FrontMatter parse(String text) throws ParseException {
    return parse(text, false);
  }

  /**
   * Splits and parses {@code text}, accepting front matter that is not valid YAML as plain
   * {@code key: value} lines. Claude Code and VS Code read their front matter that loosely, so
   * files such as {@code argument-hint: [pr] [priority]} (two flow sequences, invalid YAML) work
   * there and must work here.
   */
  public static FrontMatter parseLenient(String text) throws ParseException {
    return parse(text, true);
  }

  private static FrontMatter parse(String text, boolean lenient) throws ParseException {
    if (!isFence(firstLine(text))) {
      return new FrontMatter(new YamlNode.Mapping(Map.of(), 1), text, 1);
    }
    int start = text.indexOf('\n') + 1;
    int line = 2;
    int at = start;
    while (at < text.length() || at == text.length()) {
      int end = text.indexOf('\n', at);
      String current = end < 0 ? text.substring(at) : text.substring(at, end);
      if (isFence(current) || current.strip().equals("...")) {
        YamlNode.Mapping yaml = read(text.substring(start, at), lenient);
        String body = end < 0 ? "" : text.substring(end + 1);
        return new FrontMatter(yaml, body, line + 1);
      }
      if (end < 0) {
        break;
      }
      at = end + 1;
      line++;
    }
    throw new ParseException(1, "front matter starts with '---' but has no closing '---' line");
  }

  private static YamlNode.Mapping read(String yaml, boolean lenient) throws ParseException {
    try {
      return YamlReader.read(yaml, 2);
    } catch (ParseException e) {
      if (!lenient) {
        throw e;
      }
    }
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    int line = 2;
    for (String current : yaml.split("\n", -1)) {
      int colon = current.indexOf(':');
      if (colon > 0 && !Character.isWhitespace(current.charAt(0))) {
        String value = current.substring(colon + 1).strip();
        entries.putIfAbsent(
            current.substring(0, colon).strip(),
            new YamlNode.Scalar(
                value, value.isEmpty() ? YamlNode.Kind.NULL : YamlNode.Kind.STRING, line));
      }
      line++;
    }
    return new YamlNode.Mapping(entries, 2);
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  private static boolean isFence(String line) {
    return line.stripTrailing().equals("---");
  }
}
