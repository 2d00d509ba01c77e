package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;
import java.io.Serial;

/**
 * Text that is not valid JSON, or JSON beyond the codec's limits. The message is safe to show a
 * peer.
 */
@Stability(Stability.Tier.STABLE)
public final class JsonException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 1L;

  private final String safeMessage;

  /** Creates the exception with a message that says what is wrong and where. */
  public JsonException(String message) {
    super(message);
    this.safeMessage = message;
  }

  /** The message, safe to show a peer. */
  @Override
  public String getMessage() {
    return safeMessage;
  }
}
