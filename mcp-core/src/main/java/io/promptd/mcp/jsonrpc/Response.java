package io.promptd.mcp.jsonrpc;

import io.promptd.mcp.api.Stability;
import org.jspecify.annotations.Nullable;

/** The answer to a request: a {@link ResultResponse} or an {@link ErrorResponse}. */
@Stability(Stability.Tier.STABLE)
public sealed interface Response extends Message permits ResultResponse, ErrorResponse {
  /** The id of the request answered, or null when that request's id could not be read. */
  @Nullable
  RequestId id();
}
