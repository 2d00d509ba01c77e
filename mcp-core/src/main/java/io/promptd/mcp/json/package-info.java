/**
 * Immutable JSON values and the one codec that reads and writes them. Raw JSON never leaves this
 * package in any other form: protocol code works with {@link io.promptd.mcp.json.Json} trees.
 */
@NullMarked
package io.promptd.mcp.json;

import org.jspecify.annotations.NullMarked;
