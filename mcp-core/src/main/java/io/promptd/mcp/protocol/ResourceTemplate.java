package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A family of resources named by an RFC 6570 URI template, as {@code resources/templates/list}
 * shows it.
 *
 * @param uriTemplate the URI template, such as {@code file:///{path}}
 * @param name a short name
 * @param title a display name, or null
 * @param description what the resources hold, or null
 * @param mimeType the MIME type every matching resource has, or null
 * @param annotations hints, or null
 * @param icons icons for display
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record ResourceTemplate(
    String uriTemplate,
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable String mimeType,
    @Nullable Annotations annotations,
    List<Icon> icons,
    @Nullable JsonObject meta) {
  /** Checks the fields. */
  public ResourceTemplate {
    requireNonNull(uriTemplate, "uriTemplate");
    requireNonNull(name, "name");
    icons = List.copyOf(icons);
  }

  /** A template with a URI template, a name, a description and a MIME type. */
  public static ResourceTemplate of(
      String uriTemplate, String name, @Nullable String description, @Nullable String mimeType) {
    return new ResourceTemplate(
        uriTemplate, name, null, description, mimeType, null, List.of(), null);
  }
}
