package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;

/** JSON {@code null}. */
@Stability(Stability.Tier.STABLE)
public enum JsonNull implements Json {
  /** The only instance. */
  INSTANCE
}
