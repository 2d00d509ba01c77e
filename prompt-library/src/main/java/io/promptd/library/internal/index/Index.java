package io.promptd.library.internal.index;

import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FolderWalker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * One of the library's in-memory indexes over its source's files: the prompts
 * ({@link LibraryIndex}), the resources ({@link ResourceIndex}), the skills ({@link SkillIndex})
 * and the folder defaults ({@link FolderDefaults}). Each reads the files of one {@link FileRole}.
 * The library holds them in the order a reload runs them: folder defaults first (the prompts apply
 * them), then prompts, resources and skills.
 */
public interface Index {
  /** The role of the files this index reads. */
  FileRole role();

  /**
   * Reads the files of its role that a full load's listing found. Prompt files are not loaded this
   * way: {@link LibraryLoad} restores or parses them while the listing goes on.
   *
   * @throws IOException if the load fails
   */
  void loadAll(List<FolderWalker.Found> found, ExecutorService pool) throws IOException;

  /** Re-reads what {@code reload} says changed, and leaves in it what the indexes after it need. */
  void reload(Reload reload);

  /**
   * The files of its role that changed since it read them, given what a walk found now: changed,
   * added or gone.
   */
  Set<Path> changedSince(Map<Path, FolderWalker.Found> now);
}
