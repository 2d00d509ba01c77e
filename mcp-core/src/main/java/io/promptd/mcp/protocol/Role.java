package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import java.util.Locale;

/** Who speaks a prompt message. MCP has no system role. */
@Stability(Stability.Tier.STABLE)
public enum Role {
  /** The user. */
  USER,
  /** The assistant. */
  ASSISTANT;

  /** The wire form: {@code "user"} or {@code "assistant"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
