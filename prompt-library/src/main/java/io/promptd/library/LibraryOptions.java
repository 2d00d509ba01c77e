package io.promptd.library;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Limits and timings for a {@link Library}.
 *
 * @param maxPromptBytes the largest prompt file (or partial) read; bigger ones are refused with an error
 * @param maxAttachmentBytes the largest image, audio or resource file embedded into a prompt
 * @param maxFiles the most prompt files one library loads; more are refused with an error, so a root pointed at a
 *     home directory by mistake cannot exhaust memory
 * @param debounce how long the watcher waits for a burst of file events to go quiet before reloading
 * @param parallelism how many threads parse files during a full load
 * @param cacheDirectory where the on-disk index of parsed prompt files is kept (one file per set of roots), or null
 *     for none; it is only a cache: a missing, stale or damaged index means files are read again
 * @param cacheMinimumFiles the fewest prompt files for which the index is written: a small library loads fast anyway
 */
public record LibraryOptions(long maxPromptBytes, long maxAttachmentBytes, int maxFiles, Duration debounce,
    int parallelism, @Nullable Path cacheDirectory, int cacheMinimumFiles) {
  /** The fewest prompt files for which {@link #defaults()} writes an index. */
  private static final int DEFAULT_CACHE_MINIMUM = 1_000;

  /** Checks the fields. */
  public LibraryOptions {
    requireNonNull(debounce, "debounce");
    if (maxPromptBytes <= 0 || maxAttachmentBytes <= 0 || maxFiles <= 0 || parallelism <= 0) {
      throw new IllegalArgumentException("LibraryOptions: limits and parallelism must be positive");
    }
    if (debounce.isNegative()) {
      throw new IllegalArgumentException("LibraryOptions: debounce must not be negative, not " + debounce);
    }
    if (cacheMinimumFiles < 0) {
      throw new IllegalArgumentException("LibraryOptions: cacheMinimumFiles must not be negative");
    }
  }

  /** Options without an on-disk index. */
  public LibraryOptions(long maxPromptBytes, long maxAttachmentBytes, int maxFiles, Duration debounce,
      int parallelism) {
    this(maxPromptBytes, maxAttachmentBytes, maxFiles, debounce, parallelism, null, 0);
  }

  /**
   * 1 MiB prompt files, 10 MiB attachments, 250,000 files, a 25 ms debounce (short enough that a save shows up well
   * within 250 ms, long enough to cover an editor's write-temp-then-rename), one parse thread per core, and an index
   * for libraries of 1,000 prompt files or more under {@code $XDG_CACHE_HOME/promptd} (else
   * {@code ~/.cache/promptd}).
   */
  public static LibraryOptions defaults() {
    return new LibraryOptions(1L << 20, 10L << 20, 250_000, Duration.ofMillis(25),
        Runtime.getRuntime().availableProcessors(), userCacheDirectory(), DEFAULT_CACHE_MINIMUM);
  }

  /** A copy with another debounce. */
  public LibraryOptions withDebounce(Duration value) {
    return new LibraryOptions(maxPromptBytes, maxAttachmentBytes, maxFiles, value, parallelism, cacheDirectory,
        cacheMinimumFiles);
  }

  /** A copy with other size limits. */
  public LibraryOptions withLimits(long promptBytes, long attachmentBytes) {
    return new LibraryOptions(promptBytes, attachmentBytes, maxFiles, debounce, parallelism, cacheDirectory,
        cacheMinimumFiles);
  }

  /** A copy that keeps its index in {@code directory} whatever the library's size, or none when null. */
  public LibraryOptions withCacheDirectory(@Nullable Path directory) {
    return new LibraryOptions(maxPromptBytes, maxAttachmentBytes, maxFiles, debounce, parallelism, directory, 0);
  }

  private static @Nullable Path userCacheDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg, "promptd");
    }
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? null : Path.of(home, ".cache", "promptd");
  }
}
