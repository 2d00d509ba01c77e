/**
 * The server API: a {@link io.promptd.mcp.server.PromptCatalog} of prompts, an {@link io.promptd.mcp.server.McpServer}
 * that serves it in both protocol eras, and the {@link io.promptd.mcp.server.ServerSession} a transport drives.
 */
@NullMarked
package io.promptd.mcp.server;

import org.jspecify.annotations.NullMarked;
