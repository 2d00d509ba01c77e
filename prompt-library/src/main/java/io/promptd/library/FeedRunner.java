package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link Feed} on a thread of its own: each wake (and each {@link Feed#poll()}, if any) runs
 * a round; a source away is logged once per outage ({@code WARNING}, the retries at {@code DEBUG})
 * and its return once ({@code INFO}); any other failure is reported by a {@link FeedHealth}. It
 * also holds the library's {@link FirstLoad}, and lets tests wait for what a round did.
 * Thread-safe.
 */
@Stability(Stability.Tier.STABLE)
public final class FeedRunner implements AutoCloseable {
  private final Feed feed;
  private final System.Logger log;
  private final String name;
  private final FeedHealth health;
  private final FirstLoad loaded = new FirstLoad();
  private final Thread thread;
  /** A permit when the feed should run a round. */
  private final Semaphore wake = new Semaphore(0);

  private final Object events = new Object();
  private volatile boolean closed;
  /** Whether the source was found away since it was last reached: one warning per outage. */
  private volatile boolean away;

  /**
   * A runner of {@code feed}, not started yet.
   *
   * @param logger the name of the logger of the outage lines and of the {@link FeedHealth}
   * @param name what the log and {@link #problem()} call the feed, such as {@code "the store feed
   *     of postgresql://db/p"}
   * @param thread the name of its thread
   */
  public FeedRunner(Feed feed, String logger, String name, String thread) {
    this.feed = requireNonNull(feed, "feed");
    this.log = System.getLogger(requireNonNull(logger, "logger"));
    this.name = requireNonNull(name, "name");
    this.health = new FeedHealth(logger, name);
    this.thread = Thread.ofVirtual().name(requireNonNull(thread, "thread")).unstarted(this::run);
  }

  /** Starts the thread: {@link Feed#begin()}, then a round on each wake. */
  public void start() {
    thread.start();
  }

  /** Asks for a round; returns at once, the round happens on the runner's thread. */
  public void wake() {
    wake.release();
  }

  /** Whether the source was found away and not reached since. */
  public boolean away() {
    return away;
  }

  /**
   * The source could not be reached (by a round, or by whatever else talks to it): logged once per
   * outage.
   */
  public void unreachable(Exception cause) {
    requireNonNull(cause, "cause");
    boolean first = !away;
    away = true;
    log.log(first ? Level.WARNING : Level.DEBUG, feed.unreachable(cause));
  }

  /**
   * The source was reached: after an outage, logged once. A round that returns is such a reach; a
   * feed calls this itself to say so earlier in its round.
   */
  public void reached() {
    if (away) {
      away = false;
      log.log(Level.INFO, feed.reachableAgain());
    }
  }

  /** Marks the library's first load done; later calls do nothing. */
  public void markLoaded() {
    loaded.complete();
  }

  /** Whether the library was loaded at least once: the serving side's readiness. */
  public boolean loaded() {
    return loaded.isDone();
  }

  /** Waits up to {@code timeout} for the first load; returns whether it happened. */
  public boolean awaitLoaded(Duration timeout) throws InterruptedException {
    return loaded.await(timeout);
  }

  /** Completes with the first load; never completes exceptionally. */
  public CompletionStage<Void> firstLoad() {
    return loaded.stage();
  }

  /**
   * Why the feed is not following its source now (one line: a round failed for a reason other than
   * the source being away, or its thread stopped), or null while it is.
   */
  public @Nullable String problem() {
    String problem = health.problem();
    if (problem == null && !closed && !thread.isAlive()) {
      return name + " stopped";
    }
    return problem;
  }

  /**
   * Waits until {@code condition} holds, looking again after each round and each {@link #signal()};
   * for tests.
   *
   * @return whether it held before {@code timeout}
   */
  public boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (events) {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(events, left);
      }
      return true;
    }
  }

  /** Wakes {@link #await}: something a test may wait for changed. */
  public void signal() {
    synchronized (events) {
      events.notifyAll();
    }
  }

  /** The thread: its loop, and a report if it ever ends other than by {@link #close}. */
  private void run() {
    try {
      loop();
    } catch (RuntimeException | Error e) {
      health.stopped(e);
    }
  }

  /**
   * On each wake, a round. The source away waits for the next wake; anything else that fails a
   * round is reported once, and the next wake tries again from the version served.
   */
  private void loop() {
    feed.begin();
    Duration poll = feed.poll();
    boolean now = feed.roundAtStart();
    while (!closed) {
      if (!now) {
        try {
          if (poll.isZero()) {
            wake.acquire();
          } else {
            wake.tryAcquire(poll.toMillis(), TimeUnit.MILLISECONDS);
          }
          wake.drainPermits();
        } catch (InterruptedException e) {
          break;
        }
        if (closed) {
          break;
        }
      }
      now = false;
      try {
        feed.round();
        health.succeeded();
        reached();
      } catch (Feed.Unreachable e) {
        if (closed) {
          break;
        }
        unreachable(e.reason());
      } catch (Exception | Error e) {
        if (closed) {
          break;
        }
        health.failed(e);
      }
      signal();
    }
  }

  /**
   * Stops the thread: {@link Feed#stopping()}, then a wake and an interrupt, and waits up to
   * {@link Feed#stopWait()} for it to end. What the library serves stays.
   */
  @Override
  public void close() {
    closed = true;
    feed.stopping();
    wake.release();
    thread.interrupt();
    try {
      thread.join(feed.stopWait().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
