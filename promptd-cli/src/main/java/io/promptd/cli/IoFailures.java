package io.promptd.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * An IO failure in words, for the commands that talk to a server: refused connections, unknown
 * hosts and (with a deadline) timeouts named, never a bare class name or "null". JDK only:
 * {@link Health} runs without promptd's other jars.
 */
final class IoFailures {
  private IoFailures() {}

  /** {@code e} in words; a read past {@code timeout} (when given) is said as such. */
  static String describe(IOException e, @Nullable Duration timeout) {
    return switch (e) {
      case ConnectException c ->
        "the connection was refused (is the server running, on that host and port?)";
      case UnknownHostException u -> "unknown host " + u.getMessage();
      case SocketTimeoutException t when timeout != null -> "no answer within " + seconds(timeout);
      default -> {
        String message = e.getMessage();
        if (message != null && !message.isBlank()) {
          yield message;
        }
        yield e.getCause() instanceof IOException cause
            ? describe(cause, timeout)
            : "the connection failed (" + e.getClass().getSimpleName() + ")";
      }
    };
  }

  /** {@code d} as seconds: {@code 1 s}, {@code 0.5 s}. */
  static String seconds(Duration d) {
    long ms = d.toMillis();
    return (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.valueOf(ms / 1000.0)) + " s";
  }
}
