/**
 * Internal: the server's features. Prompts, completion, resources, skills, prompts as tools and the
 * protocol's own methods, each a {@code Feature} that adds its rows to the method table and
 * declares its capabilities; with how each era asks for a prompt's missing arguments.
 */
@NullMarked
package io.promptd.mcp.server.internal.feature;

import org.jspecify.annotations.NullMarked;
