/**
 * Internal: where a library's files come from — folders walked
 * ({@link io.promptd.library.internal.source.FolderWalker}) and watched
 * ({@link io.promptd.library.internal.source.Watcher}), or a snapshot held elsewhere — as one
 * {@link io.promptd.library.internal.source.FileSource}: listings, stamps, reads inside the root,
 * and each file's {@link io.promptd.library.internal.source.FileRole}.
 */
@NullMarked
package io.promptd.library.internal.source;

import org.jspecify.annotations.NullMarked;
