package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/** The content of a prompt message. */
@Stability(Stability.Tier.STABLE)
public sealed interface Content
    permits TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink {
  /** Hints for clients, or null. */
  @Nullable
  Annotations annotations();

  /** {@code _meta}, or null. */
  @Nullable
  JsonObject meta();
}
