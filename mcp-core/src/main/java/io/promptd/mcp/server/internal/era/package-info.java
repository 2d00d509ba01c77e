/**
 * Internal: the two protocol eras. A legacy session ({@code initialize}, its batches and
 * cancellations) and the stateless 2026-07-28 endpoint read what a request carries ({@code _meta},
 * headers), serve it from the method table and answer it, one place turning exceptions into error
 * responses.
 */
@NullMarked
package io.promptd.mcp.server.internal.era;

import org.jspecify.annotations.NullMarked;
