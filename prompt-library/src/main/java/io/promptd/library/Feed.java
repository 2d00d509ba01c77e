package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Duration;

/**
 * The steps of a library's feed that depend on its source (a store's change feed, a Git branch):
 * one round that reaches the source and loads what changed since the version served, and what the
 * log says when the source is away or back. A {@link FeedRunner} runs them: its thread, its
 * wake-ups, the outage log and stopping are the same for every source.
 */
@Stability(Stability.Tier.STABLE)
public interface Feed {
  /**
   * One round, on the runner's thread: reaches the source, loads what changed since the version
   * served and hands the library its next snapshot (nothing when nothing changed).
   *
   * @throws Unreachable when the source cannot be reached: the last version stays served and the
   *     next wake tries again
   * @throws Exception anything else the round failed on: reported once by the runner's
   *     {@link FeedHealth}
   */
  void round() throws Exception;

  /**
   * The line logged when the source is found away ({@code WARNING} once per outage, {@code DEBUG}
   * for the retries).
   *
   * @param cause why it could not be reached
   */
  String unreachable(Exception cause);

  /** The line logged at {@code INFO} once the source is reached again after an outage. */
  String reachableAgain();

  /**
   * How long the runner waits for a wake before a round anyway; zero (the default): no round
   * without a wake.
   */
  default Duration poll() {
    return Duration.ZERO;
  }

  /** Whether the runner's first round comes at once, before any wake; false by default. */
  default boolean roundAtStart() {
    return false;
  }

  /** How long {@link FeedRunner#close()} waits for the thread to end; 10 s by default. */
  default Duration stopWait() {
    return Duration.ofSeconds(10);
  }

  /**
   * Before the first round, on the runner's thread (such as serving what a local copy holds);
   * nothing by default.
   */
  default void begin() {}

  /**
   * When the runner is closed, before its thread is stopped (such as closing what wakes it);
   * nothing by default.
   */
  default void stopping() {}

  /**
   * The source could not be reached: what {@link #round()} throws then, with the reason as its
   * cause.
   */
  final class Unreachable extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why; the same as {@link #getCause()}. */
    private final Exception reason;

    /** The source could not be reached because of {@code cause}. */
    public Unreachable(Exception cause) {
      super(requireNonNull(cause, "cause"));
      this.reason = cause;
    }

    /** Why the source could not be reached: the cause given. */
    public Exception reason() {
      return reason;
    }
  }
}
