package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;

/**
 * A JSON boolean.
 *
 * @param value the boolean
 */
@Stability(Stability.Tier.STABLE)
public record JsonBoolean(boolean value) implements Json {
  /** {@code true}. */
  public static final JsonBoolean TRUE = new JsonBoolean(true);

  /** {@code false}. */
  public static final JsonBoolean FALSE = new JsonBoolean(false);
}
