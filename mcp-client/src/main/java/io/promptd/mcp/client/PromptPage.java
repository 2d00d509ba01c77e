package io.promptd.mcp.client;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Prompt;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@code prompts/list}.
 *
 * @param prompts the prompts on this page
 * @param nextCursor the cursor for the next page, or null on the last page
 */
@Stability(Stability.Tier.STABLE)
public record PromptPage(List<Prompt> prompts, @Nullable String nextCursor) {
  /** Copies the prompts. */
  public PromptPage {
    prompts = List.copyOf(prompts);
  }
}
