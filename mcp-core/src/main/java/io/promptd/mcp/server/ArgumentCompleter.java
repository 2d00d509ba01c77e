package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Completion;
import java.util.Map;

/** Suggests values for a prompt's arguments, for {@code completion/complete}. */
@FunctionalInterface
@Stability(Stability.Tier.STABLE)
public interface ArgumentCompleter {
  /**
   * Suggests values.
   *
   * @param argument the argument being completed
   * @param value what the user has typed so far
   * @param context arguments the user has already filled in, by name
   * @return at most {@value Completion#MAX_VALUES} suggestions
   */
  Completion complete(String argument, String value, Map<String, String> context);

  /** Whether completing may block; see {@link PromptRenderer#mayBlock()}. The default is true. */
  default boolean mayBlock() {
    return true;
  }
}
