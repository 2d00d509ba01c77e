package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * A link to a resource the client may fetch with {@code resources/read}.
 *
 * @param uri the resource URI
 * @param name the resource name
 * @param title a display name, or null
 * @param description a description, or null
 * @param mimeType the MIME type, or null
 * @param size the size in bytes, or null
 * @param annotations hints, or null
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record ResourceLink(
    String uri,
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable String mimeType,
    @Nullable Long size,
    @Nullable Annotations annotations,
    @Nullable JsonObject meta)
    implements Content {
  /** Checks the fields. */
  public ResourceLink {
    requireNonNull(uri, "uri");
    requireNonNull(name, "name");
  }
}
