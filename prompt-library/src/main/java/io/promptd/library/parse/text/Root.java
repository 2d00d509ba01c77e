package io.promptd.library.parse.text;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A folder served as a library. Nothing outside it is ever read.
 *
 * @param path the folder as given, normalized; files are reported under it
 * @param real the folder with every symbolic link resolved, for escape checks
 * @param index its position among the roots, which decides duplicate names
 */
public record Root(Path path, Path real, int index) {
  /** Checks the fields. */
  public Root {
    requireNonNull(path, "path");
    requireNonNull(real, "real");
  }

  /** Opens {@code dir} as root number {@code index}; it must be an existing directory. */
  public static Root open(Path dir, int index) throws IOException {
    requireNonNull(dir, "dir");
    Path normalized = dir.normalize();
    if (!Files.isDirectory(normalized)) {
      throw new IOException("prompt library root is not a directory: " + dir);
    }
    return new Root(normalized, normalized.toRealPath(), index);
  }

  /**
   * Opens every folder of {@code dirs} in order; a folder given twice (also through a link) counts
   * once.
   *
   * @param owner who asks, for the error message, e.g. {@code "Library.open"}
   * @throws IllegalArgumentException when {@code dirs} is empty
   * @throws IOException when a folder does not exist
   */
  public static List<Root> openAll(List<Path> dirs, String owner) throws IOException {
    requireNonNull(dirs, "roots");
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException(owner + ": give at least one folder");
    }
    List<Root> opened = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (Path dir : dirs) {
      Root root = open(requireNonNull(dir, "roots contains null"), opened.size());
      if (seen.add(root.real())) {
        opened.add(root);
      }
    }
    return List.copyOf(opened);
  }

  /** The path of {@code file} relative to this root, with {@code /} separators. */
  public String relative(Path file) {
    return path.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }

  /** Whether {@code file} lies under this root's path, before links are resolved. */
  public boolean contains(Path file) {
    return file.normalize().startsWith(path) && !file.normalize().equals(path);
  }
}
