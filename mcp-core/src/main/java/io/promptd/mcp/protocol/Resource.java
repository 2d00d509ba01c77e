package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A resource as {@code resources/list} shows it: something a client can fetch with
 * {@code resources/read}.
 *
 * @param uri the unique URI
 * @param name a short name
 * @param title a display name, or null
 * @param description what the resource holds, or null
 * @param mimeType the MIME type, or null
 * @param size the size in bytes, or null
 * @param annotations hints, or null
 * @param icons icons for display
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record Resource(
    String uri,
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable String mimeType,
    @Nullable Long size,
    @Nullable Annotations annotations,
    List<Icon> icons,
    @Nullable JsonObject meta) {
  /** Checks the fields. */
  public Resource {
    requireNonNull(uri, "uri");
    requireNonNull(name, "name");
    if (uri.isEmpty()) {
      throw new IllegalArgumentException("resource '" + name + "': uri must not be empty");
    }
    icons = List.copyOf(icons);
    if (size != null && size < 0) {
      throw new IllegalArgumentException(
          "resource '" + uri + "': size must not be negative, not " + size);
    }
  }

  /** A resource with a URI, a name, a description and a MIME type. */
  public static Resource of(
      String uri, String name, @Nullable String description, @Nullable String mimeType) {
    return new Resource(uri, name, null, description, mimeType, null, null, List.of(), null);
  }
}
