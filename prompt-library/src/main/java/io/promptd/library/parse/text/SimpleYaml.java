package io.promptd.library.parse.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads the plain front matter most prompt files have — block mappings and sequences of plain
 * scalars, flow sequences of plain scalars — without SnakeYAML's scanner, parser and composer, and
 * gives up (null) on anything else: quotes, comments, anchors, tags, block scalars, multi-line or
 * empty values, tabs, indentless sequences, duplicate keys. {@link YamlReader} then reads the text
 * in full, so every error and every unusual construct is still SnakeYAML's business. Scalars are
 * typed by SnakeYAML's own resolver, as the composer would.
 */
final class SimpleYaml {
  private static final String INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

  private final List<Line> lines = new ArrayList<>();
  private final Function<String, YamlNode.Kind> kinds;
  private int next;
  /** Well below {@link YamlReader}'s limits, so that what they refuse is never accepted here. */
  private int budget = 1_000;

  private int depth;

  private record Line(int number, int indent, String content) {}

  private SimpleYaml(Function<String, YamlNode.Kind> kinds) {
    this.kinds = kinds;
  }

  /**
   * The top-level mapping of {@code yaml}, whose first line is line {@code firstLine} of the file,
   * or null when the text is not in the simple subset.
   *
   * @param kinds how a plain scalar is typed
   */
  static YamlNode.@Nullable Mapping read(
      String yaml, int firstLine, Function<String, YamlNode.Kind> kinds) {
    SimpleYaml reader = new SimpleYaml(kinds);
    int number = firstLine;
    for (String text : yaml.split("\n", -1)) {
      if (text.indexOf('\t') >= 0 || text.indexOf('#') >= 0 || text.indexOf('\r') >= 0) {
        return null;
      }
      String content = text.strip();
      if (!content.isEmpty()) {
        reader.lines.add(new Line(number, text.length() - text.stripLeading().length(), content));
      }
      number++;
    }
    if (reader.lines.isEmpty()) {
      return new YamlNode.Mapping(Map.of(), firstLine);
    }
    if (reader.lines.getFirst().indent() != 0) {
      return null;
    }
    YamlNode.Mapping top = reader.mapping(0);
    return top != null && reader.next == reader.lines.size() ? top : null;
  }

  private YamlNode.@Nullable Mapping mapping(int indent) {
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    int first = lines.get(next).number();
    while (next < lines.size()
        && lines.get(next).indent() == indent
        && !lines.get(next).content().startsWith("-")) {
      Line line = lines.get(next++);
      String content = line.content();
      int colon = keyEnd(content);
      if (colon < 0) {
        return null;
      }
      String rest = content.substring(colon + 1).strip();
      YamlNode value = rest.isEmpty() ? block(indent) : inline(rest, line.number());
      if (value == null || entries.put(content.substring(0, colon), value) != null) {
        return null;
      }
    }
    return entries.isEmpty() ? null : new YamlNode.Mapping(entries, first);
  }

  /** The block value of a key with nothing after its colon: a more indented sequence or mapping. */
  private @Nullable YamlNode block(int indent) {
    if (next >= lines.size() || lines.get(next).indent() <= indent) {
      return null; // an empty value: its line and kind are SnakeYAML's to decide
    }
    if (++depth > 8) {
      return null;
    }
    int inner = lines.get(next).indent();
    YamlNode value = lines.get(next).content().startsWith("-") ? sequence(inner) : mapping(inner);
    depth--;
    return value;
  }

  private YamlNode.@Nullable Sequence sequence(int indent) {
    List<YamlNode> items = new ArrayList<>();
    int first = lines.get(next).number();
    while (next < lines.size()
        && lines.get(next).indent() == indent
        && lines.get(next).content().startsWith("-")) {
      Line line = lines.get(next);
      String content = line.content();
      if (!content.startsWith("- ")) {
        return null;
      }
      String item = content.substring(2).stripLeading();
      int itemIndent = indent + content.length() - item.length();
      if (keyEnd(item) >= 0) {
        // "- key: value" starts a mapping whose further keys line up under the first.
        lines.set(next, new Line(line.number(), itemIndent, item));
        YamlNode.Mapping mapping = mapping(itemIndent);
        if (mapping == null) {
          return null;
        }
        items.add(mapping);
      } else {
        next++;
        YamlNode.Scalar scalar = scalar(item, line.number());
        if (scalar == null) {
          return null;
        }
        items.add(scalar);
      }
    }
    return new YamlNode.Sequence(items, first);
  }

  private @Nullable YamlNode inline(String text, int number) {
    if (!text.startsWith("[")) {
      return scalar(text, number);
    }
    if (!text.endsWith("]")) {
      return null;
    }
    String inside = text.substring(1, text.length() - 1).strip();
    List<YamlNode> items = new ArrayList<>();
    if (!inside.isEmpty()) {
      for (String item : inside.split(",", -1)) {
        YamlNode.Scalar scalar = scalar(item.strip(), number);
        if (scalar == null || item.strip().contains(":")) {
          return null;
        }
        items.add(scalar);
      }
    }
    return new YamlNode.Sequence(items, number);
  }

  private YamlNode.@Nullable Scalar scalar(String text, int number) {
    if (--budget < 0
        || text.isEmpty()
        || INDICATORS.indexOf(text.charAt(0)) >= 0
        || text.contains(": ")
        || text.endsWith(":")
        || text.indexOf('[') >= 0
        || text.indexOf(']') >= 0
        || text.indexOf('{') >= 0
        || text.indexOf('}') >= 0) {
      return null;
    }
    return new YamlNode.Scalar(text, kinds.apply(text), number);
  }

  /** The index of the colon after a simple key at the start of {@code content}, or -1. */
  private static int keyEnd(String content) {
    int i = 0;
    while (i < content.length()) {
      char c = content.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || c == '_'
          || (i > 0 && ((c >= '0' && c <= '9') || c == '-'));
      if (!ok) {
        break;
      }
      i++;
    }
    if (i == 0 || i >= content.length() || content.charAt(i) != ':') {
      return -1;
    }
    return i + 1 == content.length() || content.charAt(i + 1) == ' ' ? i : -1;
  }
}
