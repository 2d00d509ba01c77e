/**
 * One servlet for both protocol eras on the official MCP Java SDK:
 * {@link io.promptd.javasdk.endpoint.DualEraServlet} hands {@code initialize}, session requests,
 * streams and {@code DELETE} to the SDK's legacy streamable HTTP transport and 2026-07-28 requests
 * to its modern transport, reading each request's body once, bounded.
 */
@NullMarked
package io.promptd.javasdk.endpoint;

import org.jspecify.annotations.NullMarked;
