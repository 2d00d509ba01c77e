/**
 * JSON-RPC 2.0 as MCP uses it: the message types, the error codes, and
 * {@link io.promptd.mcp.jsonrpc.McpException}, which a renderer, completer or resource provider
 * throws to answer with a chosen error. Turning text into messages is the transports' business
 * ({@link io.promptd.mcp.spi.MessageCodec}).
 */
@NullMarked
package io.promptd.mcp.jsonrpc;

import org.jspecify.annotations.NullMarked;
