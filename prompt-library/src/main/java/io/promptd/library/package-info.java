/**
 * Serves prompt files as MCP prompts and resources. {@link io.promptd.library.Library} opens them
 * from a {@link io.promptd.library.LibrarySource} — folders it watches, or a snapshot its owner
 * replaces —, {@link io.promptd.library.Linter} checks them, and
 * {@link io.promptd.library.Diagnostic} reports what is wrong and where.
 */
@NullMarked
package io.promptd.library;

import org.jspecify.annotations.NullMarked;
