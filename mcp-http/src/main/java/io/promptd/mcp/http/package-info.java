/**
 * The Streamable HTTP transport: {@link io.promptd.mcp.http.HttpTransport} serves an
 * {@link io.promptd.mcp.server.McpServer} on one endpoint to legacy and modern clients at once,
 * safe by default (loopback bind, Origin and Host checks, body limit, optional bearer token), and
 * beside it, for older clients, the 2024-11-05 HTTP+SSE transport ({@code GET /sse}, {@code POST
 * /messages}) with the same checks.
 */
@NullMarked
package io.promptd.mcp.http;

import org.jspecify.annotations.NullMarked;
