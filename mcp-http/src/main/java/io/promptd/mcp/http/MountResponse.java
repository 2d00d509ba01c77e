package io.promptd.mcp.http;

import io.promptd.mcp.api.Stability;

/**
 * The answer of an {@link HttpMount} to one request: headers, then exactly one {@link #send} or
 * {@link #refuse}.
 */
@Stability(Stability.Tier.STABLE)
public interface MountResponse {
  /**
   * Sets a response header, replacing any earlier value.
   *
   * @return this response
   */
  MountResponse header(String name, String value);

  /**
   * Answers with {@code body}; it raises no {@link RequestEvent}.
   *
   * @param status the HTTP status
   * @param contentType the body's media type, such as {@code text/html; charset=utf-8}
   * @param body the body; empty for none (an answer to {@code HEAD} sets {@code Content-Length}
   *     itself)
   */
  void send(int status, String contentType, byte[] body);

  /**
   * Refuses the request as the transport refuses any: {@code status} with a JSON-RPC error body (no
   * id) carrying {@code message}, which must be safe to show.
   */
  void refuse(int status, String message);
}
