package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.nio.file.Path;

/**
 * A problem found in a prompt file.
 *
 * @param severity how bad it is
 * @param file the file, as found under its root
 * @param line the 1-based line, or 0 when the problem concerns the whole file
 * @param message what is wrong, in a sentence
 */
@Stability(Stability.Tier.STABLE)
public record Diagnostic(Severity severity, Path file, int line, String message) {
  /** Checks the fields. */
  public Diagnostic {
    requireNonNull(severity, "severity");
    requireNonNull(file, "file");
    requireNonNull(message, "message");
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 or more, not " + line);
    }
  }

  /** An error at {@code file:line}. */
  public static Diagnostic error(Path file, int line, String message) {
    return new Diagnostic(Severity.ERROR, file, line, message);
  }

  /** A warning at {@code file:line}. */
  public static Diagnostic warning(Path file, int line, String message) {
    return new Diagnostic(Severity.WARNING, file, line, message);
  }

  /** Whether this is an error. */
  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /**
   * The compiler-style form {@code file:line: error: message}; the line is 1 when the whole file is
   * meant.
   */
  public String format() {
    return file + ":" + Math.max(line, 1) + ": " + severity.label() + ": " + message;
  }
}
