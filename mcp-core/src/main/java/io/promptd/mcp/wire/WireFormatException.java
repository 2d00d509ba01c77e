package io.promptd.mcp.wire;

import java.io.Serial;
import java.util.Objects;

/**
 * JSON that does not have the shape a protocol record needs; the message says what is missing or
 * wrong.
 */
public final class WireFormatException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 1L;

  /** Creates the exception with what is missing or wrong. */
  public WireFormatException(String message) {
    super(Objects.requireNonNull(message, "message"));
  }

  /** What is missing or wrong; never null. */
  @Override
  public String getMessage() {
    return Objects.requireNonNull(super.getMessage());
  }
}
