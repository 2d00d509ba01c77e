package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * Binary contents of a resource.
 *
 * @param uri the resource URI
 * @param mimeType the MIME type, or null
 * @param blob the bytes, base64-encoded
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record BlobResourceContents(
    String uri,
    @Nullable String mimeType,
    String blob,
    @Nullable JsonObject meta) implements ResourceContents {
  /** Checks the fields. */
  public BlobResourceContents {
    requireNonNull(uri, "uri");
    requireNonNull(blob, "blob");
  }
}
