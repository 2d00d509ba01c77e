package io.promptd.library.parse.text;

import io.promptd.library.parse.text.YamlNode.Kind;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.library.parse.text.YamlNode.Scalar;
import io.promptd.library.parse.text.YamlNode.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Typed reads from front matter that fail with the line and key at fault. */
public final class Fields {
  private Fields() {}

  /**
   * The string under {@code key}, or null when absent or null; numbers and booleans are taken as
   * written.
   */
  public static @Nullable String string(Mapping map, String key) throws ParseException {
    YamlNode node = map.get(key);
    if (node == null || (node instanceof Scalar s && s.kind() == Kind.NULL)) {
      return null;
    }
    if (node instanceof Scalar s) {
      return s.text();
    }
    throw new ParseException(node.line(), "'" + key + "' must be a string");
  }

  /** The boolean under {@code key}, or {@code fallback} when absent. */
  public static boolean bool(Mapping map, String key, boolean fallback) throws ParseException {
    YamlNode node = map.get(key);
    if (node == null) {
      return fallback;
    }
    if (node instanceof Scalar s && s.kind() == Kind.BOOL) {
      return Boolean.parseBoolean(s.text().toLowerCase(Locale.ROOT));
    }
    throw new ParseException(node.line(), "'" + key + "' must be true or false");
  }

  /** The strings under {@code key}: a sequence of scalars, or one scalar; empty when absent. */
  public static List<String> strings(Mapping map, String key) throws ParseException {
    YamlNode node = map.get(key);
    return node == null ? List.of() : strings(node, key);
  }

  /** {@code node} as strings: a sequence of scalars, or one scalar. */
  public static List<String> strings(YamlNode node, String key) throws ParseException {
    if (node instanceof Scalar s) {
      return s.kind() == Kind.NULL ? List.of() : List.of(s.text());
    }
    if (node instanceof Sequence seq) {
      List<String> out = new ArrayList<>(seq.items().size());
      for (YamlNode item : seq.items()) {
        if (!(item instanceof Scalar s) || s.kind() == Kind.NULL) {
          throw new ParseException(item.line(), "'" + key + "' must be a list of strings");
        }
        out.add(s.text());
      }
      return out;
    }
    throw new ParseException(node.line(), "'" + key + "' must be a list of strings");
  }

  /** The mapping under {@code key}, or null when absent. */
  public static @Nullable Mapping mapping(Mapping map, String key) throws ParseException {
    YamlNode node = map.get(key);
    if (node == null) {
      return null;
    }
    if (node instanceof Mapping m) {
      return m;
    }
    throw new ParseException(node.line(), "'" + key + "' must be a mapping");
  }

  /** The line of {@code key}'s value, or {@code fallback} when absent. */
  public static int line(Mapping map, String key, int fallback) {
    YamlNode node = map.get(key);
    return node == null ? fallback : node.line();
  }

  /** Warnings for keys outside {@code known}, which are usually typos. */
  public static void warnUnknown(Mapping map, Set<String> known, String where, Problems problems) {
    for (String key : map.keys()) {
      if (!known.contains(key)) {
        YamlNode node = map.get(key);
        problems.warning(
            node == null ? map.line() : node.line(), "unknown " + where + " key '" + key + "'");
      }
    }
  }
}
