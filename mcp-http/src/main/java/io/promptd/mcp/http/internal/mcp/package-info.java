/**
 * The MCP endpoint: one path that serves both protocol eras, handing a request to the legacy
 * endpoint (sessions, 2025-03-26 to 2025-11-25) or the modern one (stateless, 2026-07-28). Above
 * the exchange, auth and session rooms.
 */
@NullMarked
package io.promptd.mcp.http.internal.mcp;

import org.jspecify.annotations.NullMarked;
