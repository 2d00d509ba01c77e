package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A prompt and what it takes to serve it: its metadata, its renderer and, optionally, a completer.
 *
 * @param prompt the metadata {@code prompts/list} shows
 * @param renderer renders {@code prompts/get}
 * @param completer suggests argument values, or null for none
 */
public record PromptDefinition(Prompt prompt, PromptRenderer renderer, @Nullable ArgumentCompleter completer) {
  /** Checks the fields. */
  public PromptDefinition {
    requireNonNull(prompt, "prompt");
    requireNonNull(renderer, "renderer");
  }

  /** A prompt whose messages are computed from its arguments, without completion. */
  public static PromptDefinition of(
      Prompt prompt, Function<java.util.Map<String, String>, List<PromptMessage>> messages) {
    requireNonNull(messages, "messages");
    return new PromptDefinition(
        prompt, args -> GetPromptResult.of(prompt.description(), messages.apply(args)), null);
  }

  /** The prompt's name. */
  public String name() {
    return prompt.name();
  }

  /** Suggestions for {@code argument}; empty without a completer. */
  Completion complete(String argument, String value, java.util.Map<String, String> context) {
    ArgumentCompleter c = completer;
    return c == null ? Completion.EMPTY : c.complete(argument, value, context);
  }
}
