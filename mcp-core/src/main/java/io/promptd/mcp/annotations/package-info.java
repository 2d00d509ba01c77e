/**
 * Prompts written in Java code: {@link io.promptd.mcp.annotations.PromptMethod} on a method,
 * {@link io.promptd.mcp.annotations.Arg} on its parameters,
 * {@link io.promptd.mcp.annotations.Complete} for suggestions, and
 * {@link io.promptd.mcp.annotations.AnnotatedPrompts#of(Object)} to turn an object's methods into
 * prompt definitions for a {@link io.promptd.mcp.server.PromptCatalog} — served by promptd's
 * server, or through the Java SDK adapter.
 */
@NullMarked
package io.promptd.mcp.annotations;

import org.jspecify.annotations.NullMarked;
