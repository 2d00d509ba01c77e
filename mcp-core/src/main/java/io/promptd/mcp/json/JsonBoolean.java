package io.promptd.mcp.json;

/**
 * A JSON boolean.
 *
 * @param value the boolean
 */
public record JsonBoolean(boolean value) implements Json {
  /** {@code true}. */
  public static final JsonBoolean TRUE = new JsonBoolean(true);

  /** {@code false}. */
  public static final JsonBoolean FALSE = new JsonBoolean(false);
}
