/**
 * The client: {@link io.promptd.mcp.client.McpClient} connects over stdio (spawning a command) or
 * to an HTTP URL, detects whether the server is modern (2026-07-28) or legacy, and lists, gets and
 * completes prompts and follows list changes in either era. An HTTP URL that refuses Streamable
 * HTTP is tried as the old 2024-11-05 HTTP+SSE transport, as the spec's backwards-compatibility
 * section says.
 */
@NullMarked
package io.promptd.mcp.client;

import org.jspecify.annotations.NullMarked;
