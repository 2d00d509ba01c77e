/**
 * The routes of a listener besides the MCP endpoints: the health probes, the OAuth protected
 * resource metadata, and the embedder's mounts (checked as they are added, and served behind the
 * gate). Above the exchange, auth and sse rooms (a mount may not take the old transport's paths).
 */
@NullMarked
package io.promptd.mcp.http.internal.route;

import org.jspecify.annotations.NullMarked;
