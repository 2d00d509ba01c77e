package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * Audio.
 *
 * @param data the audio bytes, base64-encoded
 * @param mimeType the MIME type, e.g. {@code audio/wav}
 * @param annotations hints, or null
 * @param meta {@code _meta}, or null
 */
@Stability(Stability.Tier.STABLE)
public record AudioContent(
    String data,
    String mimeType,
    @Nullable Annotations annotations,
    @Nullable JsonObject meta) implements Content {
  /** Checks the fields. */
  public AudioContent {
    requireNonNull(data, "data");
    requireNonNull(mimeType, "mimeType");
  }
}
