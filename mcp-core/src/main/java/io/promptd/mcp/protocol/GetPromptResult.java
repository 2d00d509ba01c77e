package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A rendered prompt, the result of {@code prompts/get}.
 *
 * @param description a description, or null
 * @param messages the messages, in order
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record GetPromptResult(
    @Nullable String description,
    List<PromptMessage> messages,
    @Nullable JsonObject meta) {
  /** Copies the messages. */
  public GetPromptResult {
    messages = List.copyOf(messages);
  }

  /** A result of messages with a description. */
  public static GetPromptResult of(@Nullable String description, List<PromptMessage> messages) {
    return new GetPromptResult(description, messages, null);
  }
}
