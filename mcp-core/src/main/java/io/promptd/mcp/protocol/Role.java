package io.promptd.mcp.protocol;

import java.util.Locale;

/** Who speaks a prompt message. MCP has no system role. */
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
