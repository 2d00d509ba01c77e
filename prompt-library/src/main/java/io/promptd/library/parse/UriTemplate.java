package io.promptd.library.parse;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A URI template of RFC 6570 level 1 ({@code test://template/{id}/data}), used backwards: to match a requested URI
 * and pull the variable values out of it. Each {@code {name}} matches one or more characters other than {@code /},
 * {@code ?} and {@code #}; the value is percent-decoded (UTF-8). Nothing else of RFC 6570 is supported, so a template
 * means exactly what it looks like.
 */
public final class UriTemplate {
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]*)}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  private final String text;
  private final Pattern pattern;
  private final List<String> names;

  private UriTemplate(String text, Pattern pattern, List<String> names) {
    this.text = text;
    this.pattern = pattern;
    this.names = List.copyOf(names);
  }

  /**
   * Compiles {@code text}, written at {@code line}.
   *
   * @throws ParseException if a variable is not a plain name, is repeated, or the braces do not pair up
   */
  public static UriTemplate parse(String text, int line) throws ParseException {
    StringBuilder regex = new StringBuilder();
    List<String> names = new ArrayList<>();
    Matcher m = VARIABLE.matcher(text);
    int at = 0;
    while (m.find()) {
      literal(text.substring(at, m.start()), text, line, regex);
      String name = m.group(1);
      if (!NAME.matcher(name).matches()) {
        throw new ParseException(line, "uriTemplate '" + text + "': '{" + name + "}' must be a plain variable name"
            + " (letters, digits, '_'); operators such as '+', '#' or '?' are not supported");
      }
      if (names.contains(name)) {
        throw new ParseException(line, "uriTemplate '" + text + "': variable '" + name + "' appears twice");
      }
      names.add(name);
      regex.append("([^/?#]+)");
      at = m.end();
    }
    literal(text.substring(at), text, line, regex);
    if (names.isEmpty()) {
      throw new ParseException(line, "uriTemplate '" + text + "' has no '{variable}'; use 'uri' for a fixed URI");
    }
    return new UriTemplate(text, Pattern.compile(regex.toString()), names);
  }

  private static void literal(String part, String text, int line, StringBuilder regex) throws ParseException {
    if (part.indexOf('{') >= 0 || part.indexOf('}') >= 0) {
      throw new ParseException(line, "uriTemplate '" + text + "' has an unpaired '{' or '}'");
    }
    if (!part.isEmpty()) {
      regex.append(Pattern.quote(part));
    }
  }

  /** The template as written. */
  public String text() {
    return text;
  }

  /** The variable names, in order. */
  public List<String> names() {
    return names;
  }

  /** The variable values when {@code uri} matches, percent-decoded; empty when it does not match. */
  public Optional<Map<String, String>> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String raw = m.group(i + 1);
      try {
        // URLDecoder would turn '+' into a space, which is a form rule, not a URI one.
        values.put(names.get(i), URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
    return Optional.of(values);
  }

  @Override
  public String toString() {
    return text;
  }
}
