package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.List;

/**
 * Where a label points for one file.
 *
 * @param path the file's path relative to the library root, with {@code /} separators
 * @param label the label's name
 * @param version the file's own version it points at (see {@link FileVersion#version}); a split's
 *     first version
 * @param split the versions and weights of the label's A/B split on the file, in order; empty when
 *     it is not split
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record FileLabel(String path, String label, int version, List<SplitShare> split) {
  /** Checks the fields and copies the split. */
  public FileLabel {
    requireNonNull(path, "path");
    requireNonNull(label, "label");
    split = List.copyOf(split);
  }

  /** Where a label points that is not split. */
  public FileLabel(String path, String label, int version) {
    this(path, label, version, List.of());
  }
}
