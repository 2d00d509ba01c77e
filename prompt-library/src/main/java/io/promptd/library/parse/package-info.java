/**
 * Internal: what a prompt file parses to — {@link io.promptd.library.parse.PromptFile}, its
 * arguments and the {@link io.promptd.library.parse.ParseResult} — and the readers of resource
 * files and folder files. The formats are in {@code parse.format}, the templates in
 * {@code parse.template}, reading text, YAML and front matter in {@code parse.text}.
 */
@NullMarked
package io.promptd.library.parse;

import org.jspecify.annotations.NullMarked;
