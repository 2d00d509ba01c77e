package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;

/**
 * The server's one shared handler for the stateless era (2026-07-28) over a transport that carries
 * request metadata beside the body (HTTP). It keeps no per-request objects beyond the request's
 * own: no session, no thread.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public interface StatelessEndpoint {
  /**
   * Whether input belongs to the stateless era: its {@code MCP-Protocol-Version} names a version
   * that is not a legacy one (an unknown future version included, so that the client gets the
   * stateless "unsupported version" error), or its body carries the per-request {@code _meta}
   * version.
   */
  boolean claims(RequestHeaders headers, Incoming input);

  /**
   * Accepts one unit of stateless input. The protocol version is read here, once, from header and
   * body, which must agree; errors come back as the call's reply.
   */
  Call receive(Incoming input, RequestHeaders headers);

  /**
   * Accepts one unit of stateless input like {@link #receive(Incoming, RequestHeaders)}, sent by
   * {@code caller}.
   */
  Call receive(Incoming input, RequestHeaders headers, Caller caller);

  /**
   * Ends every open {@code subscriptions/listen} stream served here gracefully, with its final
   * response.
   */
  void endStreams();
}
