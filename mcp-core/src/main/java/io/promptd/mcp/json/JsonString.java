package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;

/**
 * A JSON string.
 *
 * @param value the string, never null
 */
@Stability(Stability.Tier.STABLE)
public record JsonString(String value) implements Json {
  /** Checks the value. */
  public JsonString {
    requireNonNull(value, "value");
  }
}
