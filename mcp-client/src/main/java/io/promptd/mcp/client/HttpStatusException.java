package io.promptd.mcp.client;

import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.io.Serial;

/** An HTTP answer that carries no JSON-RPC response: a plain 4xx or 5xx. */
@Stability(Stability.Tier.STABLE)
public final class HttpStatusException extends IOException {
  @Serial
  private static final long serialVersionUID = 1L;

  private final int status;

  /** Creates the exception with the status and the start of the body. */
  public HttpStatusException(int status, String body) {
    super("HTTP " + status + (body.isBlank() ? "" : ": " + body.strip()));
    this.status = status;
  }

  /** The HTTP status code. */
  public int status() {
    return status;
  }
}
