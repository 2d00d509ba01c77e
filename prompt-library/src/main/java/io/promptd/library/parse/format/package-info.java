/**
 * Internal: the prompt file formats, one {@link io.promptd.library.parse.format.PromptFormat} each,
 * listed in {@link io.promptd.library.parse.format.PromptFormats};
 * {@link io.promptd.library.parse.format.FileKind} tells which one reads a file and
 * {@link io.promptd.library.parse.format.PromptParser} parses it.
 */
@NullMarked
package io.promptd.library.parse.format;

import org.jspecify.annotations.NullMarked;
