package io.promptd.library.internal.index;

import io.promptd.library.internal.source.Listing;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One reload's round over the {@link Index indexes}, in their order: what changed, and what an
 * index leaves for those after it — the files whose folder defaults changed
 * ({@link FolderDefaults}), the prompts to update ({@link LibraryIndex}).
 */
public final class Reload {
  private final Set<Path> changed;
  private final Function<Path, @Nullable Root> rootOf;
  private final Listing listing;
  private Set<Path> rescoped = Set.of();
  private Map<String, @Nullable PromptDefinition> updates = Map.of();

  /**
   * A round over {@code changed}.
   *
   * @param changed the paths that changed
   * @param rootOf the root a path is under, or null
   * @param listing the listing the round shares
   */
  public Reload(Set<Path> changed, Function<Path, @Nullable Root> rootOf, Listing listing) {
    this.changed = changed;
    this.rootOf = rootOf;
    this.listing = listing;
  }

  Set<Path> changed() {
    return changed;
  }

  Function<Path, @Nullable Root> rootOf() {
    return rootOf;
  }

  Listing listing() {
    return listing;
  }

  /** The files whose folder defaults the round changed. */
  Set<Path> rescoped() {
    return rescoped;
  }

  void rescoped(Set<Path> files) {
    rescoped = files;
  }

  /**
   * The prompts the round changed, by name: the new definition, or null for one no longer served.
   */
  public Map<String, @Nullable PromptDefinition> updates() {
    return updates;
  }

  void updates(Map<String, @Nullable PromptDefinition> next) {
    updates = next;
  }
}
