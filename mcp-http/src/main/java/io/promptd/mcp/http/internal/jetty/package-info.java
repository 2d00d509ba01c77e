/**
 * The embedded Jetty: the server with its connectors, TLS files and connection limits, and the handler that wraps each
 * request in an {@link io.promptd.mcp.http.internal.exchange.Exchange} and runs its route. Above every other room of
 * the transport; no Jetty type leaves it except through the exchange room.
 */
@NullMarked
package io.promptd.mcp.http.internal.jetty;

import org.jspecify.annotations.NullMarked;
