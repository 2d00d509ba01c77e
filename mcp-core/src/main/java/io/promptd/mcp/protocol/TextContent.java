package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * Plain text.
 *
 * @param text the text
 * @param annotations hints, or null
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record TextContent(
    String text,
    @Nullable Annotations annotations,
    @Nullable JsonObject meta) implements Content {
  /** Checks the fields. */
  public TextContent {
    requireNonNull(text, "text");
  }

  /** Plain text without annotations. */
  public static TextContent of(String text) {
    return new TextContent(text, null, null);
  }
}
