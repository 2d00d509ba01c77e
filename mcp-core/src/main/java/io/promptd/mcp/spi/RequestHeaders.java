package io.promptd.mcp.spi;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.api.Stability;
import java.util.Base64;
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

  /**
   * {@code value} (a prompt's or resource's name) as an {@code Mcp-Name} header carries it: as it
   * is when it is printable ASCII without surrounding spaces, else in the spec's
   * {@code =?base64?…?=} form (UTF-8).
   */
  public static String encoded(String value) {
    boolean plain = !value.isEmpty()
        && value.strip().equals(value)
        && !(value.startsWith("=?base64?") && value.endsWith("?="))
        && value.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
    return plain
        ? value
        : "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(UTF_8)) + "?=";
  }
}
