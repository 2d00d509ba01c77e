package io.promptd.mcp.jsonrpc;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import org.jspecify.annotations.Nullable;

/**
 * A failed response.
 *
 * @param id the id of the request answered, or null when it could not be read
 * @param code the JSON-RPC error code
 * @param message a short, safe description: never a stack trace or a Java class name
 * @param data optional structured detail
 */
@Stability(Stability.Tier.STABLE)
public record ErrorResponse(
    @Nullable RequestId id,
    int code,
    String message,
    @Nullable Json data) implements Response {
  /** Checks the fields. */
  public ErrorResponse {
    requireNonNull(message, "message");
  }

  /** The response that {@code error} deserves as the answer to request {@code id}. */
  public static ErrorResponse of(@Nullable RequestId id, McpException error) {
    return new ErrorResponse(id, error.code(), error.getMessage(), error.data());
  }
}
