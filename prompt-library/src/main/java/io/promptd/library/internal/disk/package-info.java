/**
 * Internal: the on-disk parsed index ({@link io.promptd.library.internal.disk.LibraryCache}): its
 * format, and prompts as it stores them, so that a restart or a new replica need not parse every
 * file again.
 */
@NullMarked
package io.promptd.library.internal.disk;

import org.jspecify.annotations.NullMarked;
