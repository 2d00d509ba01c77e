/**
 * Internal: what a server and its requests hold. The server's {@code ServerConfig} and the
 * {@code ServerContext} built from it, what the server knows of one request
 * ({@code RequestContext}, the {@code CallSession} it arrived in, a legacy session's
 * {@code LegacyState}), and the sealed client-held state (cursors, request states, form answers).
 */
@NullMarked
package io.promptd.mcp.server.internal.state;

import org.jspecify.annotations.NullMarked;
