/**
 * Internal: reads prompt files safely (size limits, strict UTF-8, nothing outside the root) and turns each format —
 * {@code *.prompt.md}, Claude Code commands, VS Code prompt files — into a {@link io.promptd.library.parse.PromptFile}.
 */
@NullMarked
package io.promptd.library.parse;

import org.jspecify.annotations.NullMarked;
