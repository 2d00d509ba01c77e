/**
 * The stdio transport: reads newline-delimited JSON-RPC from an input stream, serves each request
 * on its own virtual thread, and writes every response whole, one per line, never interleaved.
 */
@NullMarked
package io.promptd.mcp.stdio;

import org.jspecify.annotations.NullMarked;
