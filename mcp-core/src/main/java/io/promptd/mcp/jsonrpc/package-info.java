/**
 * JSON-RPC 2.0 as MCP uses it: the message types, the one exception that carries an error code, and the codec that
 * turns a line of text into messages (or into the error response that text deserves).
 */
@NullMarked
package io.promptd.mcp.jsonrpc;

import org.jspecify.annotations.NullMarked;
