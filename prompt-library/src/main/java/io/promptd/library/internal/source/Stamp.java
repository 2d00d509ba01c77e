package io.promptd.library.internal.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.jspecify.annotations.Nullable;

/**
 * A file's size and modification time, and when they were taken. Reading a file can update its
 * access time, which the watcher reports as a modification; comparing stamps lets such events (an
 * IDE indexing the folder, a backup, {@code grep -r}) cost a {@code stat} instead of a parse.
 *
 * @param size the size in bytes
 * @param modified the modification time, in milliseconds
 * @param taken when the stamp was taken, in milliseconds
 */
public record Stamp(long size, long modified, long taken) {
  /**
   * How long a modification time must lie before its stamp was taken to be trusted: file systems
   * with coarse timestamps can give two quick saves of the same size the same time.
   */
  private static final long SETTLED_MILLIS = 2_000;

  /** The stamp of attributes read just now. */
  static Stamp of(BasicFileAttributes attrs) {
    return new Stamp(attrs.size(), attrs.lastModifiedTime().toMillis(), System.currentTimeMillis());
  }

  /** The stamp of {@code file} now, or null when it cannot be read. */
  static @Nullable Stamp of(Path file) {
    try {
      return of(Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Whether the modification time lay far enough before the stamp was taken to tell two versions
   * apart.
   */
  public boolean settled() {
    return modified < taken - SETTLED_MILLIS;
  }

  /**
   * Whether {@code now} shows the same, settled content as this stamp, so that the file need not be
   * read again.
   */
  public boolean unchanged(@Nullable Stamp now) {
    return now != null
        && now.size == size
        && now.modified == modified
        && modified < taken - SETTLED_MILLIS;
  }
}
