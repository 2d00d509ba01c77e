/**
 * For transport authors: the contract between a transport and the core. A transport decodes one
 * unit of input (a stdio line, an HTTP body) with {@link io.promptd.mcp.spi.MessageCodec}, hands
 * the resulting {@link io.promptd.mcp.spi.Incoming} to a {@link io.promptd.mcp.spi.ServerSession}
 * (legacy sessions, stdio) or to the server's {@link io.promptd.mcp.spi.StatelessEndpoint}
 * (2026-07-28 over HTTP), runs the {@link io.promptd.mcp.spi.Call} it gets back, and writes the
 * {@link io.promptd.mcp.spi.Reply}: nothing, one message or a batch, already encoded by
 * {@link io.promptd.mcp.spi.Wire}. Transports frame bytes and carry streams; every decision about
 * what to answer, and every error response, is made here in the core.
 */
@NullMarked
package io.promptd.mcp.spi;

import org.jspecify.annotations.NullMarked;
