/**
 * Internal: turns a parsed {@link io.promptd.library.parse.PromptFile} into a served
 * {@link io.promptd.mcp.server.PromptDefinition} — typed argument checks, defaults, messages,
 * completion.
 */
@NullMarked
package io.promptd.library.render;

import org.jspecify.annotations.NullMarked;
