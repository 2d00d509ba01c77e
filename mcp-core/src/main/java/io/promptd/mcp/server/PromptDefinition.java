package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.spi.Caller;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A prompt and what it takes to serve it: its metadata, its renderer, optionally a completer, and the scopes a caller
 * must hold to see it.
 *
 * <p>A prompt that requires scopes is visible only to a {@link Caller} that {@linkplain Caller#permits holds all of
 * them}: {@code prompts/list} leaves it out for anyone else, and {@code prompts/get} and {@code completion/complete}
 * answer them exactly as for a prompt that does not exist. A prompt that requires none is visible to every caller.
 *
 * @param prompt the metadata {@code prompts/list} shows
 * @param renderer renders {@code prompts/get}
 * @param completer suggests argument values, or null for none
 * @param requiredScopes the scopes a caller must hold (all of them) to see the prompt; empty for everyone
 * @param split the variants callers get instead of this one (an A/B split), or null when every caller gets this one
 */
public record PromptDefinition(
    Prompt prompt,
    PromptRenderer renderer,
    @Nullable ArgumentCompleter completer,
    Set<String> requiredScopes,
    @Nullable PromptSplit split) {
  /** Checks the fields and copies the scopes. */
  public PromptDefinition {
    requireNonNull(prompt, "prompt");
    requireNonNull(renderer, "renderer");
    requiredScopes = Set.copyOf(requireNonNull(requiredScopes, "requiredScopes"));
  }

  /** A prompt that is not split. */
  public PromptDefinition(
      Prompt prompt,
      PromptRenderer renderer,
      @Nullable ArgumentCompleter completer,
      Set<String> requiredScopes) {
    this(prompt, renderer, completer, requiredScopes, null);
  }

  /** A prompt every caller may see. */
  public PromptDefinition(
      Prompt prompt, PromptRenderer renderer, @Nullable ArgumentCompleter completer) {
    this(prompt, renderer, completer, Set.of());
  }

  /** This prompt, visible only to callers that hold every one of {@code scopes} (none: visible to every caller). */
  public PromptDefinition withRequiredScopes(Set<String> scopes) {
    Set<String> copy = Set.copyOf(requireNonNull(scopes, "scopes"));
    return copy.equals(requiredScopes)
        ? this
        : new PromptDefinition(prompt, renderer, completer, copy, split);
  }

  /**
   * This prompt served as {@code split}'s variants, each caller getting its own ({@link PromptSplit#pick}); null: as
   * itself to every caller. Who may see it stays this prompt's {@link #requiredScopes()}.
   */
  public PromptDefinition withSplit(@Nullable PromptSplit split) {
    return java.util.Objects.equals(split, this.split)
        ? this
        : new PromptDefinition(prompt, renderer, completer, requiredScopes, split);
  }

  /** What the caller known as {@code audience} is served: its variant when split, else this prompt. */
  PromptDefinition servedTo(@Nullable String audience) {
    PromptSplit s = split;
    return s == null || audience == null ? this : s.pick(audience).definition();
  }

  /** Whether {@code caller} may see this prompt. */
  boolean visibleTo(Caller caller) {
    return caller.permits(requiredScopes);
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
