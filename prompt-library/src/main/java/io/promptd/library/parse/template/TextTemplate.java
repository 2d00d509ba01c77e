package io.promptd.library.parse.template;

import java.util.Map;

/**
 * Text with holes for argument values, compiled once at load time. Values are inserted as they are
 * and never read as template text again.
 */
@FunctionalInterface
public interface TextTemplate {
  /**
   * Fills in the holes.
   *
   * @param values argument values by name: {@code String}s, or {@code Boolean}s for boolean
   *     arguments
   * @return the text
   */
  String render(Map<String, Object> values);

  /** A template with no holes. */
  static TextTemplate literal(String text) {
    return values -> text;
  }
}
