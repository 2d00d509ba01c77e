package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * Text contents of a resource.
 *
 * @param uri the resource URI
 * @param mimeType the MIME type, or null
 * @param text the text
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record TextResourceContents(
    String uri,
    @Nullable String mimeType,
    String text,
    @Nullable JsonObject meta) implements ResourceContents {
  /** Checks the fields. */
  public TextResourceContents {
    requireNonNull(uri, "uri");
    requireNonNull(text, "text");
  }
}
