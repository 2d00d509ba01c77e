package io.promptd.library.parse.template;

import io.promptd.library.parse.text.ParseException;
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
 * A URI template of RFC 6570 level 1 ({@code test://template/{id}/data}), used backwards: to match
 * a requested URI and pull the variable values out of it. Each {@code {name}} matches one or more
 * characters other than {@code /}, {@code ?} and {@code #}; the value is percent-decoded (UTF-8).
 * Nothing else of RFC 6570 is supported, so a template means exactly what it looks like.
 */
public final class UriTemplate {
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]*)}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  private final String text;
  /**
   * The literal text around the variables: one more than there are variables (the first and last
   * may be empty).
   */
  private final List<String> literals;

  private final List<String> names;

  private UriTemplate(String text, List<String> literals, List<String> names) {
    this.text = text;
    this.literals = List.copyOf(literals);
    this.names = List.copyOf(names);
  }

  /**
   * Compiles {@code text}, written at {@code line}.
   *
   * @throws ParseException if a variable is not a plain name, is repeated, or the braces do not
   *     pair up
   */
  public static UriTemplate parse(String text, int line) throws ParseException {
    List<String> literals = new ArrayList<>();
    List<String> names = new ArrayList<>();
    Matcher m = VARIABLE.matcher(text);
    int at = 0;
    while (m.find()) {
      String before = literal(text.substring(at, m.start()), text, line);
      if (!names.isEmpty() && before.isEmpty()) {
        throw new ParseException(
            line,
            "uriTemplate '" + text + "': variables '" + names.getLast() + "' and '" + m.group(1)
                + "' are next to each other; put text between them so that a URI splits one way");
      }
      literals.add(before);
      String name = m.group(1);
      if (!NAME.matcher(name).matches()) {
        throw new ParseException(
            line,
            "uriTemplate '" + text + "': '{" + name + "}' must be a plain variable name"
                + " (letters, digits, '_'); operators such as '+', '#' or '?' are not supported");
      }
      if (names.contains(name)) {
        throw new ParseException(
            line, "uriTemplate '" + text + "': variable '" + name + "' appears twice");
      }
      names.add(name);
      at = m.end();
    }
    literals.add(literal(text.substring(at), text, line));
    if (names.isEmpty()) {
      throw new ParseException(
          line, "uriTemplate '" + text + "' has no '{variable}'; use 'uri' for a fixed URI");
    }
    return new UriTemplate(text, literals, names);
  }

  private static String literal(String part, String text, int line) throws ParseException {
    if (part.indexOf('{') >= 0 || part.indexOf('}') >= 0) {
      throw new ParseException(line, "uriTemplate '" + text + "' has an unpaired '{' or '}'");
    }
    return part;
  }

  /** The template as written. */
  public String text() {
    return text;
  }

  /** The variable names, in order. */
  public List<String> names() {
    return names;
  }

  /**
   * The variable values when {@code uri} matches, percent-decoded; empty when it does not match. A
   * value is one or more characters other than {@code /}, {@code ?} and {@code #}; each variable
   * but the last takes the shortest value after which the template's next text follows, the last
   * one what is left before the final text. Linear in the URI's length (a regular expression with a
   * group per variable backtracked exponentially on some URIs a client can send: found by
   * PromptFileFuzzTest).
   */
  public Optional<Map<String, String>> match(String uri) {
    String first = literals.getFirst();
    String last = literals.getLast();
    if (!uri.startsWith(first)
        || uri.length() < first.length() + last.length()
        || !uri.endsWith(last)) {
      return Optional.empty();
    }
    int end = uri.length() - last.length();
    int at = first.length();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      int stop;
      if (i == names.size() - 1) {
        stop = end;
      } else {
        String next = literals.get(i + 1); // not empty: parse refuses variables next to each other
        stop = uri.indexOf(next, at + 1);
        if (stop < 0 || stop + next.length() > end) {
          return Optional.empty();
        }
      }
      if (stop <= at) {
        return Optional.empty();
      }
      String raw = uri.substring(at, stop);
      for (int c = 0; c < raw.length(); c++) {
        char ch = raw.charAt(c);
        if (ch == '/' || ch == '?' || ch == '#') {
          return Optional.empty();
        }
      }
      try {
        // URLDecoder would turn '+' into a space, which is a form rule, not a URI one.
        values.put(
            names.get(i), URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
      at = i == names.size() - 1 ? stop : stop + literals.get(i + 1).length();
    }
    return Optional.of(values);
  }

  @Override
  public String toString() {
    return text;
  }
}
