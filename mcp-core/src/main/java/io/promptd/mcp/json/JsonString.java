package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

/**
 * A JSON string.
 *
 * @param value the string, never null
 */
public record JsonString(String value) implements Json {
  /** Checks the value. */
  public JsonString {
    requireNonNull(value, "value");
  }
}
