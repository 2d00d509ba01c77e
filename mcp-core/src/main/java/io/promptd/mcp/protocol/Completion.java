package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Suggested values for an argument, the result of {@code completion/complete}.
 *
 * @param values at most {@value #MAX_VALUES} values
 * @param total how many values exist in all, or null when unknown
 * @param hasMore whether more values exist than were sent
 */
@Stability(Stability.Tier.STABLE)
public record Completion(List<String> values, @Nullable Integer total, boolean hasMore) {
  /** The most values one completion result may carry. */
  public static final int MAX_VALUES = 100;

  /** The empty completion. */
  public static final Completion EMPTY = new Completion(List.of(), 0, false);

  /** Copies the values and checks the limit. */
  public Completion {
    values = List.copyOf(values);
    if (values.size() > MAX_VALUES) {
      throw new IllegalArgumentException(
          "a completion carries at most " + MAX_VALUES + " values, not " + values.size());
    }
  }

  /**
   * The first {@value #MAX_VALUES} of {@code all}, with {@code total} and {@code hasMore} set from
   * its size.
   */
  public static Completion of(List<String> all) {
    int n = Math.min(all.size(), MAX_VALUES);
    return new Completion(all.subList(0, n), all.size(), all.size() > n);
  }
}
