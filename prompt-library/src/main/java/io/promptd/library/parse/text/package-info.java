/**
 * Internal: reading a library's files as text safely (size limits, strict UTF-8, nothing outside
 * the root), the problems found with their lines, and front matter, YAML and TOML.
 */
@NullMarked
package io.promptd.library.parse.text;

import org.jspecify.annotations.NullMarked;
