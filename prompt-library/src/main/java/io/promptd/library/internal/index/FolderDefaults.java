package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.internal.source.Listing;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.text.FolderFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The library's {@value FolderFile#NAME} files: the default scopes of the prompt and resource files
 * under each folder. The nearest folder file that sets {@code scopes} wins; a file's own
 * {@code scopes} overrides them all. A folder file with errors keeps its last good version in
 * force; one that never parsed hides what is under it from every caller under authorization (fail
 * closed) until it is fixed. Not thread-safe; the library serializes access.
 */
public final class FolderDefaults implements Index {
  /**
   * What a folder file that never parsed requires: a scope with a space in it, which no token can
   * grant (scope tokens have no spaces), so that only unrestricted callers see what is under it.
   */
  public static final Set<String> UNREADABLE = Set.of("promptd: unreadable " + FolderFile.NAME);

  private final FileSource source;
  private final LibraryOptions options;
  /** By folder. */
  private final Map<Path, Entry> folders = new HashMap<>();

  /**
   * One folder file: its last good parse (null when it never parsed), its current problems and its
   * stamp when read.
   */
  private record Entry(
      Root root,
      Path file,
      @Nullable FolderFile good,
      List<Diagnostic> problems,
      @Nullable Stamp stamp) {
    /** What it makes the default: null to defer to the folders above. */
    @Nullable
    Set<String> scopes() {
      FolderFile g = good;
      return g == null ? UNREADABLE : g.scopes();
    }
  }

  public FolderDefaults(FileSource source, LibraryOptions options) {
    this.source = source;
    this.options = options;
  }

  /** Reads the folder files a load's listing found. */
  void loadAll(List<FolderWalker.Found> found) {
    for (FolderWalker.Found f : found) {
      Path folder = f.file().getParent();
      if (folder != null && !folders.containsKey(folder)) {
        folders.put(folder, parse(f.root(), f.file(), f.stamp(), null));
      }
    }
  }

  /**
   * The scopes a file under {@code root} requires: {@code declared} when its front matter sets
   * them, else the nearest folder default, else none.
   */
  Set<String> effective(Root root, Path file, @Nullable Set<String> declared) {
    if (declared != null) {
      return declared;
    }
    if (folders.isEmpty()) {
      return Set.of();
    }
    for (Path dir = file.getParent();
        dir != null && dir.startsWith(root.path());
        dir = dir.getParent()) {
      Entry entry = folders.get(dir);
      Set<String> scopes = entry == null ? null : entry.scopes();
      if (scopes != null) {
        return scopes;
      }
    }
    return Set.of();
  }

  /** Whether no folder file is known, so that every default is "none". */
  boolean isEmpty() {
    return folders.isEmpty();
  }

  /**
   * Re-reads the folder files {@code changed} touches: the files themselves, and those in changed
   * folders (listed through {@code listing}).
   *
   * @return the folders whose default may have changed: the prompts and resources under them must
   *     be re-evaluated
   */
  public Set<Path> refresh(
      Set<Path> changed, Function<Path, @Nullable Root> rootOf, Listing listing) {
    Set<Path> affected = new HashSet<>();
    for (Path path : changed) {
      Root root = rootOf.apply(path);
      if (root == null) {
        continue;
      }
      // A deleted or renamed folder reports itself only: forget the folder files that went with it.
      for (Entry gone : List.copyOf(folders.values())) {
        if (gone.file().startsWith(path) && !source.present(gone.file())) {
          folders.remove(gone.file().getParent());
          affected.add(gone.file().getParent());
        }
      }
      if (source.isFolder(path)) {
        for (FolderWalker.Found f : listing.under(root, path)) {
          if (f.role() == FileRole.FOLDER) {
            visit(root, f.file(), affected);
          }
        }
      } else if (FolderFile.is(path)) {
        visit(root, path, affected);
      }
    }
    return affected;
  }

  private void visit(Root root, Path file, Set<Path> affected) {
    Path folder = file.getParent();
    if (folder == null) {
      return;
    }
    Entry before = folders.get(folder);
    Stamp stamp = source.stamp(file);
    if (stamp == null || source.isFolder(file)) {
      if (folders.remove(folder) != null) {
        affected.add(folder);
      }
      return;
    }
    Entry after = parse(root, file, stamp, before);
    folders.put(folder, after);
    if (before == null || !Objects.equals(before.scopes(), after.scopes())) {
      affected.add(folder);
    }
  }

  private Entry parse(Root root, Path file, @Nullable Stamp stamp, @Nullable Entry previous) {
    Problems problems = new Problems(file);
    try {
      String text =
          SafeFiles.decodeUtf8(source.read(root, file, options.maxPromptBytes(), 0, "folder file"));
      return new Entry(root, file, FolderFile.parse(text, problems), problems.all(), stamp);
    } catch (ParseException e) {
      problems.error(e);
      FolderFile good = previous == null ? null : previous.good();
      if (good != null) {
        problems.warning(0, "keeping the last version that loaded until the errors are fixed");
      } else {
        problems.warning(
            0,
            "until the errors are fixed, the prompts and resources under this folder are hidden from"
                + " every caller that presents an OAuth token");
      }
      return new Entry(root, file, good, problems.all(), stamp);
    }
  }

  /** The problems of every folder file. */
  public List<Diagnostic> diagnostics() {
    List<Diagnostic> out = new ArrayList<>();
    for (Entry entry : folders.values()) {
      out.addAll(entry.problems());
    }
    return out;
  }

  /**
   * The folder files that appeared, vanished or changed size or modification time compared with
   * {@code now}.
   */
  @Override
  public Set<Path> changedSince(Map<Path, FolderWalker.Found> now) {
    Set<Path> changed = new HashSet<>();
    now.forEach((file, found) -> {
      if (found.role() != FileRole.FOLDER) {
        return;
      }
      Path folder = file.getParent();
      Entry entry = folder == null ? null : folders.get(folder);
      Stamp then = entry == null ? null : entry.stamp();
      if (then == null
          || then.size() != found.stamp().size()
          || then.modified() != found.stamp().modified()) {
        changed.add(file);
      }
    });
    for (Entry known : folders.values()) {
      if (!now.containsKey(known.file())) {
        changed.add(known.file());
      }
    }
    return changed;
  }

  @Override
  public FileRole role() {
    return FileRole.FOLDER;
  }

  @Override
  public void loadAll(List<FolderWalker.Found> found, ExecutorService pool) {
    loadAll(found);
  }

  @Override
  public void reload(Reload reload) {
    reload.rescoped(refresh(reload.changed(), reload.rootOf(), reload.listing()));
  }
}
