package io.promptd.library.parse.text;

import java.io.Serial;

/**
 * A problem that stops a file from being served, with the 1-based line it is on (0 for the whole
 * file).
 */
public final class ParseException extends Exception {
  @Serial
  private static final long serialVersionUID = 1L;

  private final int line;

  /** A problem at {@code line}. */
  public ParseException(int line, String message) {
    super(message, null, false, false);
    this.line = Math.max(line, 0);
  }

  /** The message, never null. */
  @Override
  public String getMessage() {
    String message = super.getMessage();
    return message == null ? "" : message;
  }

  /** The 1-based line, or 0 when the whole file is meant. */
  public int line() {
    return line;
  }
}
