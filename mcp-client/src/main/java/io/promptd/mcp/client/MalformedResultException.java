package io.promptd.mcp.client;

import io.promptd.mcp.api.Stability;
import java.io.Serial;

/** The server answered with a result that does not have the shape the spec requires. */
@Stability(Stability.Tier.STABLE)
public final class MalformedResultException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 1L;

  /** Creates the exception; the message says what is missing or wrong. */
  public MalformedResultException(String message) {
    super("malformed result from server: " + message);
  }
}
