package io.promptd.store;

import io.promptd.mcp.api.Stability;

/**
 * What a publish (or rollback) did.
 *
 * @param libraryVersion the store's library version after it: a new one when anything changed, else
 *     the one it has
 * @param added files added
 * @param changed files whose content changed
 * @param deleted files removed (each got a deletion marker)
 * @param files how many files the store holds now
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record Published(long libraryVersion, int added, int changed, int deleted, int files) {
  /** Whether the store already had exactly these files, so nothing was written. */
  public boolean nothing() {
    return added + changed + deleted == 0;
  }
}
