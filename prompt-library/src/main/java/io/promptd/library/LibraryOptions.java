package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.ServerText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Limits and timings for a {@link Library}: {@link #defaults()}, or a {@link #builder()} that
 * starts from them.
 *
 * <pre>{@code
 * LibraryOptions options = LibraryOptions.builder().maxFiles(10_000).cacheDirectory(null).build();
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class LibraryOptions {
  /** The fewest prompt files for which {@link #defaults()} writes an index. */
  private static final int DEFAULT_CACHE_MINIMUM = 1_000;

  /** The bytes of its other files a skill's prompt embeds by default. */
  private static final long DEFAULT_SKILL_FILES_BUDGET = 64L << 10;

  private final long maxPromptBytes;
  private final long maxAttachmentBytes;
  private final int maxFiles;
  private final Duration debounce;
  private final int parallelism;
  private final @Nullable Path cacheDirectory;
  private final int cacheMinimumFiles;
  private final boolean skillPrompts;
  private final long skillFilesBudget;
  private final Locale locale;

  private LibraryOptions(Builder b) {
    requireNonNull(b.debounce, "LibraryOptions: debounce");
    if (b.maxPromptBytes <= 0
        || b.maxAttachmentBytes <= 0
        || b.maxFiles <= 0
        || b.parallelism <= 0) {
      throw new IllegalArgumentException("LibraryOptions: limits and parallelism must be positive");
    }
    if (b.debounce.isNegative()) {
      throw new IllegalArgumentException(
          "LibraryOptions: debounce must not be negative, not " + b.debounce);
    }
    if (b.skillFilesBudget < 0) {
      throw new IllegalArgumentException(
          "LibraryOptions: skillFilesBudget must not be negative, not " + b.skillFilesBudget);
    }
    if (b.cacheMinimumFiles < 0) {
      throw new IllegalArgumentException("LibraryOptions: cacheMinimumFiles must not be negative");
    }
    this.maxPromptBytes = b.maxPromptBytes;
    this.maxAttachmentBytes = b.maxAttachmentBytes;
    this.maxFiles = b.maxFiles;
    this.debounce = b.debounce;
    this.parallelism = b.parallelism;
    this.cacheDirectory = b.cacheDirectory;
    this.cacheMinimumFiles = b.cacheMinimumFiles;
    this.skillPrompts = b.skillPrompts;
    this.skillFilesBudget = b.skillFilesBudget;
    this.locale = b.locale;
  }

  /**
   * 1 MiB prompt files, 10 MiB attachments, 250,000 files, a 25 ms debounce (short enough that a
   * save shows up well within 250 ms, long enough to cover an editor's write-temp-then-rename), one
   * parse thread per core, and an index for libraries of 1,000 prompt files or more under
   * {@code $XDG_CACHE_HOME/promptd} (else {@code ~/.cache/promptd}); skills are offered as prompts
   * too, each embedding up to 64 KiB of its other text files.
   */
  public static LibraryOptions defaults() {
    return builder().build();
  }

  /** A builder that starts from the {@link #defaults()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.maxPromptBytes = maxPromptBytes;
    b.maxAttachmentBytes = maxAttachmentBytes;
    b.maxFiles = maxFiles;
    b.debounce = debounce;
    b.parallelism = parallelism;
    b.cacheDirectory = cacheDirectory;
    b.cacheMinimumFiles = cacheMinimumFiles;
    b.skillPrompts = skillPrompts;
    b.skillFilesBudget = skillFilesBudget;
    b.locale = locale;
    return b;
  }

  /** The largest prompt file (or partial) read; bigger ones are refused with an error. */
  public long maxPromptBytes() {
    return maxPromptBytes;
  }

  /** The largest image, audio or resource file embedded into a prompt. */
  public long maxAttachmentBytes() {
    return maxAttachmentBytes;
  }

  /**
   * The most prompt files one library loads; more are refused with an error, so a root pointed at a
   * home directory by mistake cannot exhaust memory.
   */
  public int maxFiles() {
    return maxFiles;
  }

  /** How long the watcher waits for a burst of file events to go quiet before reloading. */
  public Duration debounce() {
    return debounce;
  }

  /** How many threads parse files during a full load. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * Where the on-disk index of parsed prompt files is kept (one file per set of roots), or null for
   * none; it is only a cache: a missing, stale or damaged index means files are read again.
   */
  public @Nullable Path cacheDirectory() {
    return cacheDirectory;
  }

  /** The fewest prompt files for which the index is written: a small library loads fast anyway. */
  public int cacheMinimumFiles() {
    return cacheMinimumFiles;
  }

  /** A copy with another debounce. */
  public LibraryOptions withDebounce(Duration value) {
    return toBuilder().debounce(value).build();
  }

  /** A copy with other size limits. */
  public LibraryOptions withLimits(long promptBytes, long attachmentBytes) {
    return toBuilder()
        .maxPromptBytes(promptBytes)
        .maxAttachmentBytes(attachmentBytes)
        .build();
  }

  /**
   * A copy that keeps its index in {@code directory} whatever the library's size, or none when
   * null.
   */
  public LibraryOptions withCacheDirectory(@Nullable Path directory) {
    return toBuilder().cacheDirectory(directory).cacheMinimumFiles(0).build();
  }

  /**
   * Whether each skill is also offered as a prompt (a slash command putting its {@code SKILL.md}
   * into the conversation), for clients without the Skills extension; a skill whose front matter
   * says {@code user-invocable: false} never is.
   */
  public boolean skillPrompts() {
    return skillPrompts;
  }

  /**
   * How many bytes of a skill's files other than its {@code SKILL.md} its prompt embeds at most, in
   * all: its text files (UTF-8 without a NUL byte) are embedded in the skill's file order while
   * they fit, and every other file (binary, an image or audio, too large, past the budget) is a
   * link stating its type and size; 0 links every file. 64 KiB by default.
   */
  public long skillFilesBudget() {
    return skillFilesBudget;
  }

  /**
   * The language of the texts the library writes for a person to read in a listing (the skill
   * prompts' {@code task} argument description), as {@link ServerText} speaks it; English by
   * default. Give it the server's {@link io.promptd.mcp.server.McpServer.Builder#locale locale}.
   */
  public Locale locale() {
    return locale;
  }

  /** Equal when every limit, timing and switch is. */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof LibraryOptions other
        && maxPromptBytes == other.maxPromptBytes
        && maxAttachmentBytes == other.maxAttachmentBytes
        && maxFiles == other.maxFiles
        && debounce.equals(other.debounce)
        && parallelism == other.parallelism
        && Objects.equals(cacheDirectory, other.cacheDirectory)
        && cacheMinimumFiles == other.cacheMinimumFiles
        && skillPrompts == other.skillPrompts
        && skillFilesBudget == other.skillFilesBudget
        && locale.equals(other.locale);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        maxPromptBytes,
        maxAttachmentBytes,
        maxFiles,
        debounce,
        parallelism,
        cacheDirectory,
        cacheMinimumFiles,
        skillPrompts,
        skillFilesBudget,
        locale);
  }

  /** For logs: every field. */
  @Override
  public String toString() {
    return "LibraryOptions[maxPromptBytes=" + maxPromptBytes + ", maxAttachmentBytes="
        + maxAttachmentBytes
        + ", maxFiles=" + maxFiles + ", debounce=" + debounce + ", parallelism=" + parallelism
        + ", cacheDirectory="
        + cacheDirectory + ", cacheMinimumFiles=" + cacheMinimumFiles + ", skillPrompts="
        + skillPrompts + ", skillFilesBudget=" + skillFilesBudget + ", locale="
        + locale.toLanguageTag() + "]";
  }

  private static @Nullable Path userCacheDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg, "promptd");
    }
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? null : Path.of(home, ".cache", "promptd");
  }

  /**
   * Builds {@link LibraryOptions}; starts from the {@link #defaults()}, and {@link #build()} checks
   * the values.
   */
  public static final class Builder {
    private long maxPromptBytes = 1L << 20;
    private long maxAttachmentBytes = 10L << 20;
    private int maxFiles = 250_000;
    private Duration debounce = Duration.ofMillis(25);
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private @Nullable Path cacheDirectory = userCacheDirectory();
    private int cacheMinimumFiles = DEFAULT_CACHE_MINIMUM;
    private boolean skillPrompts = true;
    private long skillFilesBudget = DEFAULT_SKILL_FILES_BUDGET;
    private Locale locale = Locale.ENGLISH;

    private Builder() {}

    /** The largest prompt file (or partial) read, positive. */
    public Builder maxPromptBytes(long value) {
      this.maxPromptBytes = value;
      return this;
    }

    /** The largest image, audio or resource file embedded into a prompt, positive. */
    public Builder maxAttachmentBytes(long value) {
      this.maxAttachmentBytes = value;
      return this;
    }

    /** The most prompt files one library loads, positive. */
    public Builder maxFiles(int value) {
      this.maxFiles = value;
      return this;
    }

    /** How long the watcher waits for a burst of file events to go quiet, not negative. */
    public Builder debounce(Duration value) {
      this.debounce = requireNonNull(value, "LibraryOptions.Builder.debounce");
      return this;
    }

    /** How many threads parse files during a full load, positive. */
    public Builder parallelism(int value) {
      this.parallelism = value;
      return this;
    }

    /** Where the on-disk index is kept, or null for none. */
    public Builder cacheDirectory(@Nullable Path value) {
      this.cacheDirectory = value;
      return this;
    }

    /** The fewest prompt files for which the index is written, not negative. */
    public Builder cacheMinimumFiles(int value) {
      this.cacheMinimumFiles = value;
      return this;
    }

    /**
     * Whether skills are offered as prompts too (see {@link LibraryOptions#skillPrompts()}); true
     * by default.
     */
    public Builder skillPrompts(boolean value) {
      this.skillPrompts = value;
      return this;
    }

    /**
     * How many bytes of a skill's other files its prompt embeds at most (see
     * {@link LibraryOptions#skillFilesBudget()}), not negative; 0 links them all.
     */
    public Builder skillFilesBudget(long bytes) {
      this.skillFilesBudget = bytes;
      return this;
    }

    /**
     * The language of the texts the library writes for a person (see
     * {@link LibraryOptions#locale()}); English by default.
     */
    public Builder locale(Locale value) {
      this.locale = requireNonNull(value, "LibraryOptions.Builder.locale");
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException when a limit or the parallelism is not positive, or the
     *     debounce, {@code cacheMinimumFiles} or {@code skillFilesBudget} is negative
     */
    public LibraryOptions build() {
      return new LibraryOptions(this);
    }
  }
}
