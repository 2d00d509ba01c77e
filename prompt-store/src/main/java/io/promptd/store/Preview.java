package io.promptd.store;

import io.promptd.mcp.api.Stability;
import java.util.List;

/**
 * What a publish would do now, shown by {@code promptd publish --dry-run}; nothing was written.
 *
 * @param libraryVersion the library version the publish would make: one more than now when anything
 *     would change, else the current one
 * @param added the paths it would add, in order
 * @param changed the paths whose content it would change, in order
 * @param deleted the paths it would delete, in order
 * @param files how many files the store would hold then
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record Preview(
    long libraryVersion,
    List<String> added,
    List<String> changed,
    List<String> deleted,
    int files) {
  /** Copies the lists. */
  public Preview {
    added = List.copyOf(added);
    changed = List.copyOf(changed);
    deleted = List.copyOf(deleted);
  }

  /** Whether the store already has exactly these files, so a publish would write nothing. */
  public boolean nothing() {
    return added.isEmpty() && changed.isEmpty() && deleted.isEmpty();
  }
}
