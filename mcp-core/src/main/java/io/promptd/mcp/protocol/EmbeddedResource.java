package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * A resource whose contents travel inside the message.
 *
 * @param resource the contents, text or blob
 * @param annotations hints, or null
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record EmbeddedResource(
    ResourceContents resource,
    @Nullable Annotations annotations,
    @Nullable JsonObject meta) implements Content {
  /** Checks the fields. */
  public EmbeddedResource {
    requireNonNull(resource, "resource");
  }
}
