package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Hints for clients about a piece of content.
 *
 * @param audience who the content is for; empty when unspecified
 * @param priority importance from 0 (least) to 1 (most), or null
 * @param lastModified an ISO 8601 timestamp, or null
 */
@Stability(Stability.Tier.STABLE)
public record Annotations(
    List<Role> audience,
    @Nullable Double priority,
    @Nullable String lastModified) {
  /** Checks the fields. */
  public Annotations {
    audience = List.copyOf(audience);
    if (priority != null && !(priority >= 0 && priority <= 1)) {
      throw new IllegalArgumentException(
          "annotation priority must be between 0 and 1, not " + priority);
    }
  }
}
