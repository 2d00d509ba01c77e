package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;

/**
 * One message of a rendered prompt.
 *
 * @param role who speaks it
 * @param content what it says
 */
@Stability(Stability.Tier.STABLE)
public record PromptMessage(Role role, Content content) {
  /** Checks the fields. */
  public PromptMessage {
    requireNonNull(role, "role");
    requireNonNull(content, "content");
  }

  /** A user message of plain text. */
  public static PromptMessage user(String text) {
    return new PromptMessage(Role.USER, TextContent.of(text));
  }

  /** An assistant message of plain text. */
  public static PromptMessage assistant(String text) {
    return new PromptMessage(Role.ASSISTANT, TextContent.of(text));
  }
}
