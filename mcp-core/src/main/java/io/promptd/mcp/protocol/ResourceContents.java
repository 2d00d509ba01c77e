package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/** The contents of a resource: text or a base64 blob. */
@Stability(Stability.Tier.STABLE)
public sealed interface ResourceContents permits TextResourceContents, BlobResourceContents {
  /** The resource URI. */
  String uri();

  /** The MIME type, or null. */
  @Nullable
  String mimeType();

  /** {@code _meta}, or null. */
  @Nullable
  JsonObject meta();
}
