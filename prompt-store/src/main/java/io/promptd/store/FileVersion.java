package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One version of one file in the store.
 *
 * @param path the file's path relative to the library root, with {@code /} separators
 * @param version the file's own version, 1 for its first publish, one more for each change
 * @param libraryVersion the store-wide version of the publish that wrote it
 * @param time when it was published
 * @param author who published it
 * @param sha256 the SHA-256 of its content in hex, or null for a deletion marker
 * @param deleted whether this version removed the file
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record FileVersion(
    String path,
    int version,
    long libraryVersion,
    Instant time,
    String author,
    @Nullable String sha256,
    boolean deleted) {
  /** Checks the fields. */
  public FileVersion {
    requireNonNull(path, "path");
    requireNonNull(time, "time");
    requireNonNull(author, "author");
  }
}
