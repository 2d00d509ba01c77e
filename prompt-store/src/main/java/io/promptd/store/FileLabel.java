package io.promptd.store;

import static java.util.Objects.requireNonNull;

/**
 * Where a label points for one file.
 *
 * @param path the file's path relative to the library root, with {@code /} separators
 * @param label the label's name
 * @param version the file's own version it points at (see {@link FileVersion#version})
 */
public record FileLabel(String path, String label, int version) {
  /** Checks the fields. */
  public FileLabel {
    requireNonNull(path, "path");
    requireNonNull(label, "label");
  }
}
