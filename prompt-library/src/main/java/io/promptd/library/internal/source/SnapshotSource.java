package io.promptd.library.internal.source;

import io.promptd.library.LibraryFiles;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.text.FolderFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.Root;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LibraryFiles} snapshot as a {@link FileSource}: the files live in memory under a root
 * that exists on no disk, so nothing is ever read from one. A new snapshot replaces the old at
 * once; the paths that differ are what the library reloads.
 */
public final class SnapshotSource implements FileSource {
  /**
   * The root the files are listed under; its last two names matter to {@link FileKind#classify}, as
   * a folder's do.
   */
  public static final Path ROOT = Path.of("/", "promptd-store", "library");

  public static final Root SNAPSHOT_ROOT = new Root(ROOT, ROOT, 0);

  private final Root root = SNAPSHOT_ROOT;
  private volatile Map<Path, Entry> files = Map.of();
  private volatile Set<Path> folders = Set.of();

  /**
   * A file's bytes and the stamp standing for its content: its size and, as the "modification
   * time", 60 bits of its SHA-256 — the same in every process, so that a parsed index written by
   * one library vouches for the same content in another. The digest comes with the snapshot when
   * its store keeps one, and is computed otherwise. Whether a file changed is told by comparing
   * bytes, which is exact; a file whose bytes did not change keeps its stamp.
   */
  @SuppressWarnings(
      "ArrayRecordComponent") // never compared as a record: the stamp stands for the bytes
  private record Entry(byte[] data, Stamp stamp) {}

  public SnapshotSource(LibraryFiles snapshot) {
    replace(snapshot);
  }

  /**
   * Swaps in {@code snapshot}; returns the paths added, changed or removed. Called by one thread at
   * a time.
   */
  public Set<Path> replace(LibraryFiles snapshot) {
    Map<Path, Entry> next = new TreeMap<>();
    Set<Path> dirs = new HashSet<>();
    Map<Path, Entry> before = files;
    Set<Path> changed = new HashSet<>();
    snapshot.files().forEach((relative, data) -> {
      Path file = ROOT.resolve(relative);
      Entry old = before.get(file);
      if (old != null && Arrays.equals(old.data(), data)) {
        next.put(file, old);
      } else {
        long content = contentStamp(snapshot.sha256().get(relative), data);
        next.put(file, new Entry(data, new Stamp(data.length, content, Long.MAX_VALUE)));
        changed.add(file);
      }
      for (Path p = file.getParent(); p != null && p.startsWith(ROOT); p = p.getParent()) {
        dirs.add(p);
      }
    });
    before.keySet().stream().filter(f -> !next.containsKey(f)).forEach(changed::add);
    files = next;
    folders = dirs;
    // What a folder watcher would report: nothing in the folders a scan skips.
    changed.removeIf(file -> !wanted(file));
    return changed;
  }

  /**
   * 60 bits of the content's SHA-256: positive, and far below a stamp's "taken" time, so always
   * settled.
   */
  static long contentStamp(@Nullable String sha256, byte[] data) {
    if (sha256 != null) {
      return Long.parseUnsignedLong(sha256.substring(0, 15), 16);
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(data);
      long high = 0;
      for (int i = 0; i < 8; i++) {
        high = (high << 8) | (digest[i] & 0xFF);
      }
      return high >>> 4;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Whether the snapshot holds no file. */
  public boolean empty() {
    return files.isEmpty();
  }

  @Override
  public List<Root> roots() {
    return List.of(root);
  }

  @Override
  public void list(Root r, Path start, Consumer<FolderWalker.Found> found) {
    for (Map.Entry<Path, Entry> e : files.entrySet()) {
      Path file = e.getKey();
      if (!file.startsWith(start) || !wanted(file)) {
        continue;
      }
      FileKind.Match match = FileKind.classify(root, file);
      FolderWalker.Found listed =
          FolderWalker.Found.of(root, file, match, e.getValue().stamp());
      if (listed != null) {
        found.accept(listed);
      }
    }
  }

  @Override
  public void listAll(Root r, Path start, Consumer<Path> found) {
    for (Path file : files.keySet()) {
      if (file.startsWith(start) && wanted(file)) {
        found.accept(file);
      }
    }
  }

  /** Whether every folder from the root down to {@code file}'s is one a folder scan would enter. */
  private static boolean wanted(Path file) {
    return entered(file.getParent());
  }

  /**
   * Whether a folder scan enters {@code dir} (under {@link #ROOT}) and every folder between it and
   * the root.
   */
  public static boolean entered(@Nullable Path dir) {
    for (Path p = dir; p != null && p.startsWith(ROOT); p = p.getParent()) {
      if (!FolderWalker.wanted(SNAPSHOT_ROOT, p)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] readListed(FolderWalker.Found file, long limit, Map<Path, Boolean> cache)
      throws ParseException {
    return read(file.root(), file.file(), limit, 0, "prompt file");
  }

  @Override
  public byte[] read(Root r, Path file, long limit, int line, String what) throws ParseException {
    Path normal = file.normalize();
    String shown = normal.startsWith(ROOT) ? root.relative(normal) : normal.toString();
    if (!root.contains(normal)) {
      throw new ParseException(line, what + " '" + shown + "' lies outside the library root");
    }
    Entry entry = files.get(normal);
    if (entry == null) {
      // Named in another Unicode normalisation than the reference (a file committed from macOS).
      String wanted = PromptNames.nfc(normal.toString());
      entry = files.entrySet().stream()
          .filter(e -> PromptNames.nfc(e.getKey().toString()).equals(wanted))
          .map(Map.Entry::getValue)
          .findFirst()
          .orElse(null);
    }
    if (entry == null) {
      throw new ParseException(line, what + " '" + shown + "' does not exist");
    }
    if (entry.data().length > limit) {
      throw new ParseException(
          line,
          what + " '" + shown + "' is " + entry.data().length + " bytes, over the limit of "
              + limit);
    }
    return entry.data();
  }

  /** {@code r} itself: a snapshot holds no links, so every file under {@code dir} lies in it. */
  @Override
  public Root narrowed(Root r, Path dir) {
    return r;
  }

  @Override
  public boolean exists(Path file) {
    return present(file.normalize());
  }

  @Override
  public @Nullable Stamp stamp(Path path) {
    Entry entry = files.get(path);
    return entry == null ? null : entry.stamp();
  }

  @Override
  public boolean isFolder(Path path) {
    return path.equals(ROOT) || folders.contains(path);
  }

  @Override
  public boolean present(Path path) {
    return files.containsKey(path) || isFolder(path);
  }

  /**
   * Changes arrive through {@link #replace}, not a watcher; {@code seen} gets today's files so
   * nothing looks missed.
   */
  @Override
  public AutoCloseable watch(Consumer<Set<Path>> onChange, Consumer<FolderWalker.Found> seen) {
    list(root, ROOT, seen);
    return () -> {};
  }

  @Override
  public boolean servable(Root r, Path file) {
    return files.containsKey(file.normalize()) && !FolderFile.is(file);
  }

  /** For logs: how many files and bytes the snapshot holds. */
  @Override
  public String toString() {
    Map<Path, Entry> now = files;
    long bytes = now.values().stream().mapToLong(e -> e.data().length).sum();
    return "snapshot of " + now.size() + " files, " + bytes + " bytes";
  }
}
