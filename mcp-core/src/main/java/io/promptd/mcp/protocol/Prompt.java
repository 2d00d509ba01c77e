package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A prompt as {@code prompts/list} shows it.
 *
 * @param name the unique name
 * @param title a display name, or null
 * @param description what the prompt does, or null
 * @param arguments the arguments, in order, names unique
 * @param icons icons for display
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record Prompt(
    String name,
    @Nullable String title,
    @Nullable String description,
    List<PromptArgument> arguments,
    List<Icon> icons,
    @Nullable JsonObject meta) {
  /** Checks the fields. */
  public Prompt {
    requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("prompt name must not be empty");
    }
    arguments = List.copyOf(arguments);
    icons = List.copyOf(icons);
    Set<String> seen = new HashSet<>();
    for (PromptArgument a : arguments) {
      if (!seen.add(a.name())) {
        throw new IllegalArgumentException(
            "prompt '" + name + "': argument '" + a.name() + "' declared twice");
      }
    }
  }

  /** A prompt with a name, a description and arguments. */
  public static Prompt of(
      String name, @Nullable String description, List<PromptArgument> arguments) {
    return new Prompt(name, null, description, arguments, List.of(), null);
  }
}
