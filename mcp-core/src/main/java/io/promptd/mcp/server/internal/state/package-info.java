/**
 * Internal: what a server and its requests hold. The server's {@code ServerConfig} and the {@code ServerContext} built
 * from it, the method table the features fill, one request as a handler sees it ({@code MethodCall}, {@code
 * RequestContext}, the {@code CallSession} it arrived in), and the sealed client-held state (cursors, request states,
 * form answers).
 */
@NullMarked
package io.promptd.mcp.server.internal.state;

import org.jspecify.annotations.NullMarked;
