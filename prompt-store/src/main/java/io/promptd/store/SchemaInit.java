package io.promptd.store;

import io.promptd.mcp.api.Stability;

/**
 * What {@link StoreDatabase#init()} found and did.
 *
 * @param before the schema version the store was at: 0 for a new store
 * @param after the schema version it is at now, the newest this release knows
 * @param applied how many migrations were applied now: 0 when the schema was current
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record SchemaInit(int before, int after, int applied) {}
