package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One move of a label on one file, as recorded.
 *
 * @param path the file's path relative to the library root, with {@code /} separators
 * @param label the label's name
 * @param from the version it pointed at before, or 0 when the file did not have the label
 * @param to the version it points at after, or 0 when the label was removed from the file
 * @param libraryVersion the store's library version when it moved
 * @param author who moved it (the operating-system user for the command line)
 * @param time when it moved
 * @param split the A/B split the move made, as given ({@code 7:90 8:10}; {@code to} is its first
 *     version), or null
 * @param promotion the {@linkplain Promotion#id() promotion} the move was part of, or 0
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record LabelMove(
    String path,
    String label,
    int from,
    int to,
    long libraryVersion,
    String author,
    Instant time,
    @Nullable String split,
    long promotion) {
  /** Checks the fields. */
  public LabelMove {
    requireNonNull(path, "path");
    requireNonNull(label, "label");
    requireNonNull(author, "author");
    requireNonNull(time, "time");
  }

  /** A move that made no split. */
  public LabelMove(
      String path,
      String label,
      int from,
      int to,
      long libraryVersion,
      String author,
      Instant time) {
    this(path, label, from, to, libraryVersion, author, time, null, 0);
  }
}
