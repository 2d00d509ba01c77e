package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.spi.Caller;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A prompt and what it takes to serve it: its metadata, its renderer, optionally a completer, and
 * the scopes a caller must hold to see it.
 *
 * <p>A prompt that requires scopes is visible only to a {@link Caller} that
 * {@linkplain Caller#permits holds all of them}: {@code prompts/list} leaves it out for anyone
 * else, and {@code prompts/get} and {@code completion/complete} answer them exactly as for a prompt
 * that does not exist. A prompt that requires none is visible to every caller.
 *
 * <p>Its metadata may be {@linkplain #listed made when first asked for}: a server with a very large
 * catalog (a library restored from an on-disk index) then holds only each prompt's name until a
 * listing page, a request or a comparison needs the rest. Two definitions are equal when their
 * prompts, renderers, completers, scopes and splits are; comparing makes the metadata of both.
 */
@Stability(Stability.Tier.STABLE)
public final class PromptDefinition {
  private final Metadata metadata;
  private final PromptRenderer renderer;
  private final @Nullable ArgumentCompleter completer;
  private final Set<String> requiredScopes;
  private final @Nullable PromptSplit split;

  /**
   * A prompt with all it takes to serve it.
   *
   * @param prompt the metadata {@code prompts/list} shows
   * @param renderer renders {@code prompts/get}
   * @param completer suggests argument values, or null for none
   * @param requiredScopes the scopes a caller must hold (all of them) to see the prompt; empty for
   *     everyone
   * @param split the variants callers get instead of this one (an A/B split), or null when every
   *     caller gets this one
   */
  public PromptDefinition(
      Prompt prompt,
      PromptRenderer renderer,
      @Nullable ArgumentCompleter completer,
      Set<String> requiredScopes,
      @Nullable PromptSplit split) {
    this(
        new Metadata(requireNonNull(prompt, "prompt")), renderer, completer, requiredScopes, split);
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

  private PromptDefinition(
      Metadata metadata,
      PromptRenderer renderer,
      @Nullable ArgumentCompleter completer,
      Set<String> requiredScopes,
      @Nullable PromptSplit split) {
    this.metadata = metadata;
    this.renderer = requireNonNull(renderer, "renderer");
    this.completer = completer;
    this.requiredScopes = Set.copyOf(requireNonNull(requiredScopes, "requiredScopes"));
    this.split = split;
  }

  /**
   * A prompt every caller may see, known by {@code name} until its metadata is first asked for:
   * then {@code prompt} is called once (whatever the number of threads asking) and what it gives is
   * kept.
   *
   * @param name the prompt's name, which the metadata {@code prompt} gives must have
   * @param prompt makes the metadata; it must not block for long, as a listing page waits for it
   * @throws IllegalStateException from {@link #prompt()} when {@code prompt} gives a prompt of
   *     another name
   */
  public static PromptDefinition listed(
      String name,
      Supplier<Prompt> prompt,
      PromptRenderer renderer,
      @Nullable ArgumentCompleter completer) {
    return new PromptDefinition(
        new Metadata(requireNonNull(name, "name"), requireNonNull(prompt, "prompt")),
        renderer,
        completer,
        Set.of(),
        null);
  }

  /** A prompt whose messages are computed from its arguments, without completion. */
  public static PromptDefinition of(
      Prompt prompt, Function<Map<String, String>, List<PromptMessage>> messages) {
    requireNonNull(messages, "messages");
    return new PromptDefinition(
        prompt, args -> GetPromptResult.of(prompt.description(), messages.apply(args)), null);
  }

  /**
   * The metadata {@code prompts/list} shows; made on first use for a {@linkplain #listed listed}
   * definition.
   */
  public Prompt prompt() {
    return metadata.prompt();
  }

  /** Renders {@code prompts/get}. */
  public PromptRenderer renderer() {
    return renderer;
  }

  /** Suggests argument values, or null for none. */
  public @Nullable ArgumentCompleter completer() {
    return completer;
  }

  /** The scopes a caller must hold (all of them) to see the prompt; empty for everyone. */
  public Set<String> requiredScopes() {
    return requiredScopes;
  }

  /**
   * The variants callers get instead of this one (an A/B split), or null when every caller gets
   * this one.
   */
  public @Nullable PromptSplit split() {
    return split;
  }

  /** The prompt's name; known without making the metadata. */
  public String name() {
    return metadata.name;
  }

  /**
   * This prompt, visible only to callers that hold every one of {@code scopes} (none: visible to
   * every caller).
   */
  public PromptDefinition withRequiredScopes(Set<String> scopes) {
    Set<String> copy = Set.copyOf(requireNonNull(scopes, "scopes"));
    return copy.equals(requiredScopes)
        ? this
        : new PromptDefinition(metadata, renderer, completer, copy, split);
  }

  /**
   * This prompt served as {@code split}'s variants, each caller getting its own
   * ({@link PromptSplit#pick}); null: as itself to every caller. Who may see it stays this prompt's
   * {@link #requiredScopes()}.
   */
  public PromptDefinition withSplit(@Nullable PromptSplit split) {
    return Objects.equals(split, this.split)
        ? this
        : new PromptDefinition(metadata, renderer, completer, requiredScopes, split);
  }

  /** Whether {@code caller} may see this prompt. */
  boolean visibleTo(Caller caller) {
    return caller.permits(requiredScopes);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof PromptDefinition d
        && d.name().equals(name())
        && d.renderer.equals(renderer)
        && Objects.equals(d.completer, completer)
        && d.requiredScopes.equals(requiredScopes)
        && Objects.equals(d.split, split)
        && (d.metadata == metadata || d.prompt().equals(prompt()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(prompt(), renderer, completer, requiredScopes, split);
  }

  @Override
  public String toString() {
    return "PromptDefinition[name=" + name() + ", requiredScopes=" + requiredScopes
        + (split == null ? "" : ", split") + "]";
  }

  /** A prompt's metadata, made at most once, shared by the copies {@code with…} makes. */
  private static final class Metadata {
    final String name;
    private @Nullable Supplier<Prompt> maker;
    private volatile @Nullable Prompt prompt;

    Metadata(Prompt prompt) {
      this.name = prompt.name();
      this.prompt = prompt;
    }

    Metadata(String name, Supplier<Prompt> maker) {
      this.name = name;
      this.maker = maker;
    }

    Prompt prompt() {
      Prompt p = prompt;
      if (p != null) {
        return p;
      }
      synchronized (this) {
        p = prompt;
        if (p == null) {
          Supplier<Prompt> m = requireNonNull(maker, "maker");
          p = requireNonNull(m.get(), "the listed prompt's metadata");
          if (!p.name().equals(name)) {
            throw new IllegalStateException(
                "listed prompt '" + name + "' was made as '" + p.name() + "'");
          }
          prompt = p;
          maker = null;
        }
        return p;
      }
    }
  }
}
