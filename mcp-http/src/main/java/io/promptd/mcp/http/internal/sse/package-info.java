/**
 * The 2024-11-05 HTTP+SSE transport, for older clients: a session's {@code GET /sse} stream and its
 * {@code POST /messages}, behind the same gate as the MCP endpoint. Above the exchange, auth and
 * mcp rooms.
 */
@NullMarked
package io.promptd.mcp.http.internal.sse;

import org.jspecify.annotations.NullMarked;
