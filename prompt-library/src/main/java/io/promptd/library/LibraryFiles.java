package io.promptd.library;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A library's files held somewhere other than a folder (a database), as one snapshot: each file's path relative to
 * the library root, with {@code /} separators, and its bytes. {@link Library#load(LibraryFiles, LibraryOptions)}
 * serves it; {@link Library#replace(LibraryFiles)} pushes the next one through the same reload as a file watcher's.
 *
 * @param version the snapshot's version in its store, for logs and readiness; it is not interpreted
 * @param files path to bytes; the arrays are not copied, so the caller must not change them afterwards
 */
public record LibraryFiles(long version, Map<String, byte[]> files) {
  /** Checks the paths and copies the map (not the arrays), sorted by path. */
  public LibraryFiles {
    requireNonNull(files, "files");
    TreeMap<String, byte[]> sorted = new TreeMap<>();
    files.forEach((path, data) -> {
      requireNonNull(path, "LibraryFiles: a path is null");
      requireNonNull(data, () -> "LibraryFiles: the bytes of '" + path + "' are null");
      if (path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.endsWith("/")
          || ("/" + path + "/").contains("/../") || ("/" + path + "/").contains("/./")
          || path.contains("//")) {
        throw new IllegalArgumentException("LibraryFiles: '" + path + "' is not a relative path with / separators");
      }
      sorted.put(path, data);
    });
    files = Collections.unmodifiableMap(sorted);
  }
}
