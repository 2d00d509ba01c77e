/**
 * Internal: the library's in-memory indexes over its source's files — prompts
 * ({@link io.promptd.library.internal.index.LibraryIndex}), resources
 * ({@link io.promptd.library.internal.index.ResourceIndex}), skills
 * ({@link io.promptd.library.internal.index.SkillIndex}) and folder defaults
 * ({@link io.promptd.library.internal.index.FolderDefaults}) — a full load over them
 * ({@link io.promptd.library.internal.index.LibraryLoad}), and what they serve: resources, prompt
 * versions.
 */
@NullMarked
package io.promptd.library.internal.index;

import org.jspecify.annotations.NullMarked;
