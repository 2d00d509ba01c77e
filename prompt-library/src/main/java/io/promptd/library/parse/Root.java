package io.promptd.library.parse;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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

  /** The path of {@code file} relative to this root, with {@code /} separators. */
  public String relative(Path file) {
    return path.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }

  /** Whether {@code file} lies under this root's path, before links are resolved. */
  public boolean contains(Path file) {
    return file.normalize().startsWith(path) && !file.normalize().equals(path);
  }
}
