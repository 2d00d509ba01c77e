package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.internal.source.FolderSource;
import io.promptd.library.internal.source.SnapshotSource;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link Library}'s files come from, given to {@link Library#open}: {@linkplain #folders
 * folders} on disk, followed by a watcher once {@link Library#watch()} is called, or a
 * {@linkplain #snapshot snapshot} of files held elsewhere (a database), which its owner
 * {@linkplain Snapshot#replace replaces}. Either way the files are listed, parsed and reloaded
 * alike, and prompts, resources and attachments are served from them the same way.
 */
@Stability(Stability.Tier.STABLE)
public abstract sealed class LibrarySource permits LibrarySource.Folders, LibrarySource.Snapshot {
  private LibrarySource() {}

  /**
   * Folders on disk, in precedence order: earlier ones win name and URI clashes.
   *
   * @param roots at least one folder; opening the library checks that each is one
   */
  public static Folders folders(List<Path> roots) {
    return new Folders(roots);
  }

  /** An empty snapshot, filled by its first {@link Snapshot#replace replacement}. */
  public static Snapshot snapshot() {
    return snapshot(new LibraryFiles(0, Map.of()));
  }

  /** A snapshot holding {@code files} until it is {@link Snapshot#replace replaced}. */
  public static Snapshot snapshot(LibraryFiles files) {
    return new Snapshot(requireNonNull(files, "files"));
  }

  /**
   * Opens this source's files and loads a library from them, without logging; the library's load is
   * the caller's.
   */
  abstract Library open(LibraryOptions options, String owner) throws IOException;

  /**
   * Folders on disk as a library's files; the library watches them once {@link Library#watch()} is
   * called.
   */
  public static final class Folders extends LibrarySource {
    private final List<Path> roots;

    private Folders(List<Path> roots) {
      this.roots = List.copyOf(requireNonNull(roots, "roots"));
    }

    /** The folders, in precedence order. */
    public List<Path> roots() {
      return roots;
    }

    @Override
    Library open(LibraryOptions options, String owner) throws IOException {
      List<Root> opened = Root.openAll(roots, owner);
      return Library.serve(new FolderSource(opened, options), options);
    }

    /** For logs: the folders. */
    @Override
    public String toString() {
      return roots.toString();
    }
  }

  /**
   * A library's files held somewhere other than a folder, as one snapshot replaced as a whole: the
   * paths that differ from the last one are reloaded as a folder watcher's changes are, so the
   * catalog changes in one atomic step and resource listeners hear of it. The on-disk index is not
   * used (the files are in memory already; the cache directory is ignored); a parsed index may be
   * handed over instead ({@link #replace(LibraryFiles, byte[])}). A snapshot serves one library.
   */
  public static final class Snapshot extends LibrarySource {
    private LibraryFiles pending;
    private byte @Nullable [] pendingIndex;
    private @Nullable Library library;
    private @Nullable SnapshotSource files;

    private Snapshot(LibraryFiles files) {
      this.pending = files;
    }

    /**
     * Serves {@code files} from now on (once the library is open; before, they are what it opens
     * with).
     *
     * @throws IllegalStateException when the library it serves is closed
     */
    public void replace(LibraryFiles files) {
      replace(files, null);
    }

    /**
     * {@link #replace(LibraryFiles)}, with a parsed index for the library's first files: when the
     * library has served none yet, a prompt file whose content (by {@link LibraryFiles#sha256()
     * digest}) and dependencies the index vouches for is served from it without being parsed —
     * until it is first rendered — as a folder's restart is served from its on-disk index. An index
     * made for other limits or by another promptd version, or damaged, is ignored; a stale one
     * vouches only for the files that did not change. Later calls ignore {@code index}.
     *
     * @param index what {@link Library#parsedIndex()} of another library returned, or null
     * @throws IllegalStateException when the library it serves is closed
     */
    public void replace(LibraryFiles files, byte @Nullable [] index) {
      requireNonNull(files, "files");
      Library served;
      SnapshotSource source;
      synchronized (this) {
        pending = files;
        served = library;
        source = this.files;
        if (served == null || source == null) {
          pendingIndex = index;
          return;
        }
      }
      // Outside the lock, as a watcher's reloads are: the library orders racing replacements
      // itself.
      served.replace(source, files, index);
    }

    /** The version of the snapshot last given, for logs. */
    synchronized long version() {
      return pending.version();
    }

    @Override
    synchronized Library open(LibraryOptions options, String owner) throws IOException {
      if (library != null) {
        throw new IllegalStateException(
            owner + ": this snapshot serves a library already; a snapshot serves one");
      }
      LibraryFiles first = pending;
      byte[] index = pendingIndex;
      pendingIndex = null;
      // An index handed over applies to a library's first files only: open empty, then replace, as
      // a store's feed does.
      SnapshotSource source =
          new SnapshotSource(index == null ? first : new LibraryFiles(0, Map.of()));
      Library opened = Library.serve(source, options.withCacheDirectory(null));
      if (index != null) {
        opened.replace(source, first, index);
      }
      files = source;
      library = opened;
      return opened;
    }

    /** For logs: what the snapshot held when last described. */
    @Override
    public synchronized String toString() {
      SnapshotSource source = files;
      return source == null ? "snapshot version " + pending.version() : source.toString();
    }
  }
}
