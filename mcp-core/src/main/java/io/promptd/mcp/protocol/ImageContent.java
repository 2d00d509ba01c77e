package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * An image.
 *
 * @param data the image bytes, base64-encoded
 * @param mimeType the MIME type, e.g. {@code image/png}
 * @param annotations hints, or null
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record ImageContent(
    String data,
    String mimeType,
    @Nullable Annotations annotations,
    @Nullable JsonObject meta) implements Content {
  /** Checks the fields. */
  public ImageContent {
    requireNonNull(data, "data");
    requireNonNull(mimeType, "mimeType");
  }
}
