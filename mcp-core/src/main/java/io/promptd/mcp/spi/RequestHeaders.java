package io.promptd.mcp.spi;

import org.jspecify.annotations.Nullable;

/**
 * The 2026-07-28 request metadata a transport carries next to the body (HTTP's {@code MCP-Protocol-Version}, {@code
 * Mcp-Method} and {@code Mcp-Name} headers), raw as received; the core checks them against the body.
 *
 * @param protocolVersion the {@code MCP-Protocol-Version} value, or null when absent
 * @param method the {@code Mcp-Method} value, or null when absent
 * @param name the {@code Mcp-Name} value, or null when absent
 */
public record RequestHeaders(@Nullable String protocolVersion, @Nullable String method, @Nullable String name) {}
