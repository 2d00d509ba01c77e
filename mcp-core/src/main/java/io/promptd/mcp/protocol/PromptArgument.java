package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import org.jspecify.annotations.Nullable;

/**
 * An argument a prompt accepts.
 *
 * @param name the name
 * @param title a display name, or null
 * @param description what the argument is for, or null
 * @param required whether {@code prompts/get} must supply it
 */
@Stability(Stability.Tier.STABLE)
public record PromptArgument(
    String name, @Nullable String title, @Nullable String description, boolean required) {
  /** Checks the fields. */
  public PromptArgument {
    requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("argument name must not be empty");
    }
  }

  /** A required argument with a description. */
  public static PromptArgument required(String name, @Nullable String description) {
    return new PromptArgument(name, null, description, true);
  }

  /** An optional argument with a description. */
  public static PromptArgument optional(String name, @Nullable String description) {
    return new PromptArgument(name, null, description, false);
  }
}
