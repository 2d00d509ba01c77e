/**
 * promptd's prompts on a server built with the official MCP Java SDK
 * ({@code io.modelcontextprotocol.sdk}): {@link io.promptd.javasdk.SdkPrompts} turns a
 * {@link io.promptd.mcp.server.PromptCatalog} — a prompt library's, or one filled in code — into
 * the SDK's prompt and completion specifications, and keeps a running SDK server's prompts in step
 * with the catalog as files change. {@link io.promptd.javasdk.SdkSkills} offers the Agent Skills of
 * a prompt library or of {@link io.promptd.library.Skills} as the SDK's resource specifications
 * ({@code skill://} URIs): the SDK has no Skills extension, so resources are all it can serve of
 * them.
 */
@NullMarked
package io.promptd.javasdk;

import org.jspecify.annotations.NullMarked;
