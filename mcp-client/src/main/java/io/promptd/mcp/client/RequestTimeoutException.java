package io.promptd.mcp.client;

import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.io.Serial;
import java.time.Duration;

/** The server did not answer a request in time; the request was cancelled. */
@Stability(Stability.Tier.STABLE)
public final class RequestTimeoutException extends IOException {
  @Serial
  private static final long serialVersionUID = 1L;

  /** Creates the exception for {@code method}. */
  public RequestTimeoutException(String method, Duration timeout) {
    super("no answer to " + method + " within " + timeout.toMillis() + " ms");
  }
}
