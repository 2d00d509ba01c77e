package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.Caller;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One immutable state of the server's prompt catalog, as the features read it: the catalog's own
 * snapshot is one ({@code PromptCatalog.Snapshot}), handed over by {@code McpServer} as
 * {@link ServerContext#snapshot()}.
 */
public interface PromptSnapshot {
  /** The prompt named {@code name}, whoever may see it, or null. */
  @Nullable
  PromptDefinition get(String name);

  /**
   * Up to {@code limit} prompts that {@code caller} may see whose names sort after {@code after}
   * (from the start when null), plus whether more that it may see follow.
   */
  Listing page(@Nullable String after, int limit, Caller caller);

  /**
   * One page of prompts.
   *
   * @param items the prompts, sorted by name
   * @param more whether more follow
   */
  record Listing(List<PromptDefinition> items, boolean more) {}
}
