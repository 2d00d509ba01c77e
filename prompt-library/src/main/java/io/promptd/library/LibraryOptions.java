package io.promptd.library;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Limits and timings for a {@link Library}.
 *
 * @param maxPromptBytes the largest prompt file (or partial) read; bigger ones are refused with an error
 * @param maxAttachmentBytes the largest image, audio or resource file embedded into a prompt
 * @param maxFiles the most prompt files one library loads; more are refused with an error, so a root pointed at a
 *     home directory by mistake cannot exhaust memory
 * @param debounce how long the watcher waits for a burst of file events to go quiet before reloading
 * @param parallelism how many threads parse files during a full load
 */
public record LibraryOptions(
    long maxPromptBytes, long maxAttachmentBytes, int maxFiles, Duration debounce, int parallelism) {
  /** Checks the fields. */
  public LibraryOptions {
    requireNonNull(debounce, "debounce");
    if (maxPromptBytes <= 0 || maxAttachmentBytes <= 0 || maxFiles <= 0 || parallelism <= 0) {
      throw new IllegalArgumentException("LibraryOptions: limits and parallelism must be positive");
    }
    if (debounce.isNegative()) {
      throw new IllegalArgumentException("LibraryOptions: debounce must not be negative, not " + debounce);
    }
  }

  /**
   * 1 MiB prompt files, 10 MiB attachments, 250,000 files, a 25 ms debounce (short enough that a save shows up well
   * within 250 ms, long enough to cover an editor's write-temp-then-rename), one parse thread per core.
   */
  public static LibraryOptions defaults() {
    return new LibraryOptions(
        1L << 20, 10L << 20, 250_000, Duration.ofMillis(25), Runtime.getRuntime().availableProcessors());
  }

  /** A copy with another debounce. */
  public LibraryOptions withDebounce(Duration value) {
    return new LibraryOptions(maxPromptBytes, maxAttachmentBytes, maxFiles, value, parallelism);
  }

  /** A copy with other size limits. */
  public LibraryOptions withLimits(long promptBytes, long attachmentBytes) {
    return new LibraryOptions(promptBytes, attachmentBytes, maxFiles, debounce, parallelism);
  }
}
