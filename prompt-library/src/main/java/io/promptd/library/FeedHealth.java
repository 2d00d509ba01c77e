package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.lang.System.Logger.Level;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a library's feed (the folder watcher, a store's change feed, a Git branch's) is doing:
 * whether its last round failed for a reason other than its source being away, or its thread
 * stopped. A failure is logged once, with its stack trace, and again only when the reason changes
 * or after a round that went well, so a feed failing on every round does not flood the log. The
 * serving side reads {@link #problem()} for its readiness. Thread-safe.
 */
@Stability(Stability.Tier.STABLE)
public final class FeedHealth {
  private final System.Logger log;
  private final String feed;
  private volatile @Nullable String problem;
  private volatile boolean stopped;

  /**
   * The health of {@code feed}, logged to {@code logger}.
   *
   * @param logger the name of the logger
   * @param feed what the log and {@link #problem()} call it, such as {@code "the store feed of
   *     postgresql://db/p"}
   */
  public FeedHealth(String logger, String feed) {
    this.log = System.getLogger(requireNonNull(logger, "logger"));
    this.feed = requireNonNull(feed, "feed");
  }

  /** A round that went well: a failure before it is over. */
  public void succeeded() {
    if (problem != null && !stopped) {
      problem = null;
      log.log(Level.INFO, feed + " is working again");
    }
  }

  /**
   * A round that failed unexpectedly: what it read is not served, the last good version stays, and
   * the feed goes on with its next round.
   */
  public void failed(Throwable e) {
    requireNonNull(e, "e");
    String reason = feed + " failed (" + describe(e) + "); serving what it served before";
    if (!stopped && !Objects.equals(reason, problem)) {
      problem = reason;
      log.log(Level.ERROR, reason, e);
    } else {
      log.log(Level.DEBUG, reason);
    }
  }

  /**
   * The feed's thread ended while it should still be running: the library stays as it is, for good.
   */
  public void stopped(Throwable e) {
    requireNonNull(e, "e");
    stopped = true;
    problem = feed + " stopped (" + describe(e) + "); the library no longer follows its source";
    log.log(Level.ERROR, problem, e);
  }

  /** Why the feed is not following its source now (one line), or null while it is. */
  public @Nullable String problem() {
    return problem;
  }

  private static String describe(Throwable e) {
    if (e instanceof StackOverflowError) {
      return "something it read is nested too deeply";
    }
    String message = e.getMessage();
    return message == null || message.isBlank()
        ? "an internal error"
        : message.lines().findFirst().orElse(message);
  }
}
