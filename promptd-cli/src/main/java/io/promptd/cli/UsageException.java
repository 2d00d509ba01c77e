package io.promptd.cli;

import java.io.Serial;

/** A command line that makes no sense; the message says why. */
final class UsageException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
