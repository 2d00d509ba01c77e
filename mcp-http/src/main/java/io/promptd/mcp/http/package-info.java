/**
 * The Streamable HTTP transport: {@link io.promptd.mcp.http.HttpTransport} serves an {@link
 * io.promptd.mcp.server.McpServer} on one endpoint to legacy and modern clients at once, safe by default (loopback
 * bind, Origin and Host checks, body limit, optional bearer token).
 */
@NullMarked
package io.promptd.mcp.http;

import org.jspecify.annotations.NullMarked;
