/**
 * One HTTP request and its answer as the transport's routes see them: the
 * {@link io.promptd.mcp.http.internal.exchange.Exchange} with its body, JSON and SSE answers and
 * request event, read and written through the server's
 * {@link io.promptd.mcp.http.internal.exchange.HttpIo}; the routes and the router that picks one by
 * path, and the per-request limits (answer budget, streams per client). Below every other room of
 * the transport.
 */
@NullMarked
package io.promptd.mcp.http.internal.exchange;

import org.jspecify.annotations.NullMarked;
