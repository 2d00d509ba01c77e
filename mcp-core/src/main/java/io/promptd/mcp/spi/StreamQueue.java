package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One outbound stream's bounded queue of encoded frames, written by a virtual thread of its own
 * while there is something to write: the thread starts when a frame arrives at an empty queue and
 * ends when the queue is empty again, so an idle stream holds no thread. Whoever has something to
 * say (the notification broadcaster, a request) only {@linkplain #offer enqueues}: it never writes
 * to the network and never waits for a slow client. A stream that falls behind — more than
 * {@link Limits#maxFrames()} frames waiting, or the oldest waiting longer than
 * {@link Limits#maxAge()} — is given up: its frames are dropped, a line is logged, and the
 * transport's overflow action closes the connection (a legacy client resumes with
 * {@code Last-Event-ID}, a modern one listens again). The others never notice.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StreamQueue {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.spi");

  private final String name;
  private final Sink sink;
  private final Limits limits;
  private final Runnable onOverflow;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Frame> frames = new ArrayDeque<>();
  private final CountDownLatch ended = new CountDownLatch(1);
  private boolean closing;
  private boolean dead;
  /** Whether a writing thread is running; at most one is. */
  private boolean writing;
  /** When the writing thread last ran out of frames. */
  private long idleSince = System.nanoTime();
  /** How long the stream may stay silent before {@link #keepAliveFrame} is written; 0 for ever. */
  private long keepAliveNanos;

  private byte[] keepAliveFrame = new byte[0];
  private Runnable onGone = () -> {};
  private @Nullable ScheduledFuture<?> keepAliveCheck;

  /** Writes one frame to the stream, blocking while the network does. */
  @FunctionalInterface
  public interface Sink {
    /**
     * Writes one frame.
     *
     * @throws IOException when the stream has failed; the queue then stops
     */
    void write(byte[] frame) throws IOException;
  }

  /**
   * How far a stream may fall behind before it is closed.
   *
   * @param maxFrames how many frames may wait
   * @param maxAge how long the oldest waiting frame may wait
   */
  public record Limits(int maxFrames, Duration maxAge) {
    /** 1,000 frames or 30 seconds. */
    public static final Limits DEFAULT = new Limits(1000, Duration.ofSeconds(30));

    /** Checks the fields. */
    public Limits {
      if (maxFrames < 1) {
        throw new IllegalArgumentException(
            "StreamQueue.Limits.maxFrames: must be at least 1, not " + maxFrames);
      }
      requireNonNull(maxAge, "maxAge");
      if (maxAge.isNegative() || maxAge.isZero()) {
        throw new IllegalArgumentException(
            "StreamQueue.Limits.maxAge: must be positive, not " + maxAge);
      }
    }
  }

  private static final class Frame {
    final byte[] bytes;
    final long queuedAt;

    Frame(byte[] bytes, long queuedAt) {
      this.bytes = bytes;
      this.queuedAt = queuedAt;
    }
  }

  /**
   * The one thread that checks every stream's silence: a stream waiting for its keep-alive holds a
   * scheduled check here, not a thread of its own.
   */
  private static final class Silences {
    static final ScheduledThreadPoolExecutor CHECKS = checks();

    private static ScheduledThreadPoolExecutor checks() {
      ScheduledThreadPoolExecutor checks = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "promptd-keep-alive");
        t.setDaemon(true);
        return t;
      });
      checks.setRemoveOnCancelPolicy(true); // a stream that ends leaves nothing behind
      return checks;
    }
  }

  private StreamQueue(String name, Sink sink, Limits limits, Runnable onOverflow) {
    this.name = name;
    this.sink = sink;
    this.limits = limits;
    this.onOverflow = onOverflow;
  }

  /**
   * Starts a queue.
   *
   * @param name what the stream is, for the log line
   * @param sink writes a frame to the stream
   * @param limits how far the stream may fall behind
   * @param onOverflow closes the connection when the stream fell behind; must not block
   */
  public static StreamQueue start(String name, Sink sink, Limits limits, Runnable onOverflow) {
    return new StreamQueue(
        requireNonNull(name, "name"),
        requireNonNull(sink, "sink"),
        requireNonNull(limits, "limits"),
        requireNonNull(onOverflow, "onOverflow"));
  }

  /**
   * Enqueues a frame without blocking.
   *
   * @return false when the stream is closing, has failed or has just been given up for falling
   *     behind
   */
  public boolean offer(byte[] frame) {
    long now = System.nanoTime();
    int waiting;
    long oldestNanos;
    boolean ends;
    lock.lock();
    try {
      if (dead || closing) {
        return false;
      }
      Frame oldest = frames.peekFirst();
      oldestNanos = oldest == null ? 0 : now - oldest.queuedAt;
      waiting = frames.size();
      if (waiting < limits.maxFrames() && oldestNanos <= limits.maxAge().toNanos()) {
        frames.addLast(new Frame(frame, now));
        startWriting();
        return true;
      }
      dead = true;
      frames.clear();
      ends = !writing;
    } finally {
      lock.unlock();
    }
    LOG.log(
        Level.WARNING,
        "closing " + name + ": its client fell behind (" + waiting
            + " messages waiting, the oldest for "
            + Duration.ofNanos(oldestNanos).toMillis() + " ms)");
    onOverflow.run();
    if (ends) {
      end();
    }
    return false;
  }

  /**
   * Writes {@code frame} (an SSE comment, say) whenever the stream has been silent for
   * {@code every}, so that a client that went away is noticed even when there is nothing to say;
   * {@code onGone} runs when a write fails, this one or any other.
   */
  public void keepAlive(Duration every, byte[] frame, Runnable onGone) {
    requireNonNull(every, "every");
    requireNonNull(frame, "frame");
    requireNonNull(onGone, "onGone");
    lock.lock();
    try {
      keepAliveNanos = Math.max(1, every.toNanos());
      keepAliveFrame = frame.clone();
      this.onGone = onGone;
      idleSince = System.nanoTime();
      if (!dead && !closing && ended.getCount() != 0) {
        checkSilenceIn(keepAliveNanos);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Stops taking frames; the ones queued are still written, then the stream ends. */
  public void close() {
    boolean ends;
    lock.lock();
    try {
      closing = true;
      ends = !writing;
    } finally {
      lock.unlock();
    }
    if (ends) {
      end();
    }
  }

  /** Stops at once: queued frames are dropped. */
  public void abort() {
    boolean ends;
    lock.lock();
    try {
      dead = true;
      frames.clear();
      ends = !writing;
    } finally {
      lock.unlock();
    }
    if (ends) {
      end();
    }
  }

  /** Whether the stream failed or was given up. */
  public boolean failed() {
    lock.lock();
    try {
      return dead;
    } finally {
      lock.unlock();
    }
  }

  /** Blocks until the stream has ended (closed and drained, failed, or given up). */
  public void awaitEnd() throws InterruptedException {
    ended.await();
  }

  /** Starts the writing thread unless it runs; called holding the lock. */
  private void startWriting() {
    if (!writing) {
      writing = true;
      Thread.ofVirtual().name("promptd-stream").start(this::write);
    }
  }

  /** The writing thread: writes until the queue is empty, then ends. */
  private void write() {
    try {
      for (byte[] frame = next(); frame != null; frame = next()) {
        sink.write(frame);
      }
    } catch (IOException | UncheckedIOException e) {
      fail(); // the client went away
    } catch (RuntimeException e) {
      // A sink that fails otherwise (a server's response already completed under it, say) has ended
      // the stream just the same; this thread must not die with an uncaught exception on stderr.
      LOG.log(Level.DEBUG, () -> name + " ended: " + e);
      fail();
    }
  }

  /**
   * The next frame to write, or null when there is none: the writing thread then ends, and the
   * stream with it when it is closing or dead.
   */
  private byte @Nullable [] next() {
    boolean ends;
    lock.lock();
    try {
      Frame f = dead ? null : frames.pollFirst();
      if (f != null) {
        return f.bytes;
      }
      writing = false;
      idleSince = System.nanoTime();
      ends = dead || closing;
    } finally {
      lock.unlock();
    }
    if (ends) {
      end();
    }
    return null;
  }

  /** A write failed: the stream is dead, and whoever watches it hears so. */
  private void fail() {
    Runnable r;
    lock.lock();
    try {
      dead = true;
      writing = false;
      frames.clear();
      r = onGone;
    } finally {
      lock.unlock();
    }
    end();
    r.run();
  }

  private void end() {
    ScheduledFuture<?> check;
    lock.lock();
    try {
      check = keepAliveCheck;
      keepAliveCheck = null;
    } finally {
      lock.unlock();
    }
    if (check != null) {
      check.cancel(false);
    }
    ended.countDown();
  }

  /** Schedules the next look at the stream's silence; called holding the lock. */
  private void checkSilenceIn(long nanos) {
    if (keepAliveCheck != null) {
      keepAliveCheck.cancel(false);
    }
    keepAliveCheck = Silences.CHECKS.schedule(this::checkSilence, nanos, TimeUnit.NANOSECONDS);
  }

  /** Queues the keep-alive frame when the stream has been silent long enough. */
  private void checkSilence() {
    lock.lock();
    try {
      if (dead || closing || ended.getCount() == 0) {
        return;
      }
      long left = idleSince + keepAliveNanos - System.nanoTime();
      if (writing || !frames.isEmpty()) {
        left = keepAliveNanos;
      } else if (left <= 0) {
        frames.addLast(new Frame(keepAliveFrame, System.nanoTime()));
        startWriting();
        left = keepAliveNanos;
      }
      checkSilenceIn(left);
    } finally {
      lock.unlock();
    }
  }
}
