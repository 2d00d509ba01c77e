/**
 * Serves folders of prompt files as MCP prompts and resources. {@link io.promptd.library.Library} loads and watches
 * them, {@link io.promptd.library.Linter} checks them, and {@link io.promptd.library.Diagnostic} reports what is
 * wrong and where.
 */
@NullMarked
package io.promptd.library;

import org.jspecify.annotations.NullMarked;
