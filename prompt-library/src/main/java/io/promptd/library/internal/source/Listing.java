package io.promptd.library.internal.source;

import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The files under the folders one batch of changes names (a folder created, renamed into place, or
 * a rescan after the watcher overflowed), listed once and shared by the prompt and resource
 * indexes.
 */
public final class Listing {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final FileSource source;
  private final Map<Path, List<FolderWalker.Found>> listed = new HashMap<>();

  public Listing(FileSource source) {
    this.source = source;
  }

  /** The prompt and resource files at or under {@code folder}, a folder of {@code root}. */
  public List<FolderWalker.Found> under(Root root, Path folder) {
    return listed.computeIfAbsent(folder, f -> {
      List<FolderWalker.Found> found = new ArrayList<>();
      try {
        source.list(root, f, found::add);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot list " + f + ": " + e.getMessage());
      }
      return found;
    });
  }
}
