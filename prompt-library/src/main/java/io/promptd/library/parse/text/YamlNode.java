package io.promptd.library.parse.text;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Front matter as plain data with line numbers: mappings, sequences and scalars, nothing else. No
 * Java object is ever constructed from YAML, whatever tags it carries.
 */
public sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {
  /** The 1-based line in the prompt file where this node starts. */
  int line();

  /** What a scalar looked like to YAML's core schema. */
  enum Kind {
    /** A string, quoted or plain. */
    STRING,
    /** An integer such as {@code 3}. */
    INT,
    /** A float such as {@code 1.5}. */
    FLOAT,
    /** {@code true} or {@code false}. */
    BOOL,
    /** {@code null}, {@code ~} or nothing. */
    NULL
  }

  /**
   * A scalar.
   *
   * @param text the scalar as written
   * @param kind how YAML's core schema reads it
   * @param line the line it starts on
   */
  record Scalar(String text, Kind kind, int line) implements YamlNode {}

  /**
   * A sequence.
   *
   * @param items the items
   * @param line the line it starts on
   */
  record Sequence(List<YamlNode> items, int line) implements YamlNode {
    /** Copies the items. */
    public Sequence {
      items = List.copyOf(items);
    }
  }

  /**
   * A mapping with string keys, in document order.
   *
   * @param entries the values by key; insertion-ordered
   * @param line the line it starts on
   */
  record Mapping(Map<String, YamlNode> entries, int line) implements YamlNode {
    /** The value under {@code key}, or null. */
    public @Nullable YamlNode get(String key) {
      return entries.get(key);
    }

    /** The keys, in document order. */
    public Set<String> keys() {
      return entries.keySet();
    }
  }
}
