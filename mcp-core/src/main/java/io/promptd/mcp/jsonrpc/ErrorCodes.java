package io.promptd.mcp.jsonrpc;

import io.promptd.mcp.api.Stability;

/** The JSON-RPC and MCP error codes promptd uses. */
@Stability(Stability.Tier.STABLE)
public final class ErrorCodes {
  /** The text is not JSON. */
  public static final int PARSE_ERROR = -32700;

  /** The JSON is not a valid request. */
  public static final int INVALID_REQUEST = -32600;

  /** The method does not exist or is not available. */
  public static final int METHOD_NOT_FOUND = -32601;

  /** The parameters are wrong: unknown prompt, missing argument, bad cursor, .... */
  public static final int INVALID_PARAMS = -32602;

  /** The server failed; the message is safe and says no more than it must. */
  public static final int INTERNAL_ERROR = -32603;

  /** Resource not found, as legacy versions define it (2025-11-25 and earlier). */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /** An HTTP header disagrees with the body (2026-07-28). */
  public static final int HEADER_MISMATCH = -32020;

  /** The request needs a client capability the client did not declare (2026-07-28). */
  public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

  /** The requested protocol version is not supported (2026-07-28). */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  /**
   * Too many requests of one kind from one client: {@code completion/complete} past its rate limit.
   * Chosen outside JSON-RPC's reserved range (-32768 to -32000), where 2026-07-28 says
   * implementation-defined codes belong; 429 echoes HTTP's "Too Many Requests".
   * {@code data.retryAfterMs} says when to retry.
   */
  public static final int RATE_LIMITED = -31429;

  private ErrorCodes() {}
}
