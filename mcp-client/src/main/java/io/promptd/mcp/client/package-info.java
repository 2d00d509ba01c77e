/**
 * The client: {@link io.promptd.mcp.client.McpClient} connects over stdio (spawning a command) or to an HTTP URL,
 * detects whether the server is modern (2026-07-28) or legacy, and lists, gets and completes prompts and follows
 * list changes in either era.
 */
@NullMarked
package io.promptd.mcp.client;

import org.jspecify.annotations.NullMarked;
