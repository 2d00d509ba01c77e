/**
 * The server API, for server authors: a {@link io.promptd.mcp.server.PromptCatalog} of
 * {@link io.promptd.mcp.server.PromptDefinition}s (each a prompt, its
 * {@link io.promptd.mcp.server.PromptRenderer} and an optional
 * {@link io.promptd.mcp.server.ArgumentCompleter}), an optional
 * {@link io.promptd.mcp.server.ResourceProvider}, and the {@link io.promptd.mcp.server.McpServer}
 * that serves them in both protocol eras. Transports drive it through {@link io.promptd.mcp.spi}.
 */
@NullMarked
package io.promptd.mcp.server;

import org.jspecify.annotations.NullMarked;
