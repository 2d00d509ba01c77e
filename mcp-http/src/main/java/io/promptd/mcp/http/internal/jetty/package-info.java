/**
 * The embedded Jetty: the server with its connectors, TLS files, connection limits and request-head
 * deadline, and the handler that wraps each request in an
 * {@link io.promptd.mcp.http.internal.exchange.Exchange} and runs its route. Above every other room
 * of the transport; no Jetty type leaves it, as the exchange reads and writes through an
 * {@link io.promptd.mcp.http.internal.exchange.HttpIo}.
 */
@NullMarked
package io.promptd.mcp.http.internal.jetty;

import org.jspecify.annotations.NullMarked;
