package io.promptd.library.parse.template;

import io.promptd.mcp.protocol.Role;

/**
 * Who speaks a section of a prompt body. {@link #SYSTEM} has no MCP role and is folded into the
 * first user message.
 */
public enum Speaker {
  /** Instructions; folded into the first user message. */
  SYSTEM,
  /** The user. */
  USER,
  /** The assistant. */
  ASSISTANT;

  /** The MCP role; system text is sent as the user's. */
  public Role role() {
    return this == ASSISTANT ? Role.ASSISTANT : Role.USER;
  }
}
