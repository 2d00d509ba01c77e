/**
 * Internal: reads prompt files safely (size limits, strict UTF-8, nothing outside the root) and turns each format —
 * one {@link io.promptd.library.parse.PromptFormat} each, listed in {@link io.promptd.library.parse.PromptFormats} —
 * into a {@link io.promptd.library.parse.PromptFile}.
 */
@NullMarked
package io.promptd.library.parse;

import org.jspecify.annotations.NullMarked;
