package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;
import org.jspecify.annotations.Nullable;

/**
 * The 2026-07-28 request metadata a transport carries next to the body (HTTP's
 * {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code Mcp-Name} headers), raw as received;
 * the core checks them against the body.
 *
 * @param protocolVersion the {@code MCP-Protocol-Version} value, or null when absent
 * @param method the {@code Mcp-Method} value, or null when absent
 * @param name the {@code Mcp-Name} value, or null when absent
 * @param remoteAddress the client's address as the transport saw it, or null when it cannot tell
 *     clients apart: the key of a client's completion rate limit when no authenticated subject is
 *     known
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record RequestHeaders(
    @Nullable String protocolVersion,
    @Nullable String method,
    @Nullable String name,
    @Nullable String remoteAddress) {
  /** Headers without a client address. */
  public RequestHeaders(
      @Nullable String protocolVersion, @Nullable String method, @Nullable String name) {
    this(protocolVersion, method, name, null);
  }
}
