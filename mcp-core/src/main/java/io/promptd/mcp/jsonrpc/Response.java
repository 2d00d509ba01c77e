package io.promptd.mcp.jsonrpc;

import org.jspecify.annotations.Nullable;

/** The answer to a request: a {@link ResultResponse} or an {@link ErrorResponse}. */
public sealed interface Response extends Message permits ResultResponse, ErrorResponse {
  /** The id of the request answered, or null when that request's id could not be read. */
  @Nullable
  RequestId id();
}
