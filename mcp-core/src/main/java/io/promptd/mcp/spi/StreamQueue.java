package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One outbound stream's bounded queue of encoded frames, drained by the stream's own virtual
 * thread. Whoever has something to say (the notification broadcaster, a request) only
 * {@linkplain #offer enqueues}: it never writes to the network and never waits for a slow client. A
 * stream that falls behind — more than {@link Limits#maxFrames()} frames waiting, or the oldest
 * waiting longer than {@link Limits#maxAge()} — is given up: its frames are dropped, a line is
 * logged, and the transport's overflow action closes the connection (a legacy client resumes with
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
  private final Condition ready = lock.newCondition();
  private final ArrayDeque<Frame> frames = new ArrayDeque<>();
  private final CountDownLatch ended = new CountDownLatch(1);
  private boolean closing;
  private boolean dead;
  /** How long the stream may stay silent before {@link #keepAliveFrame} is written; 0 for ever. */
  private long keepAliveNanos;

  private byte[] keepAliveFrame = new byte[0];
  private Runnable onGone = () -> {};

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

  private StreamQueue(String name, Sink sink, Limits limits, Runnable onOverflow) {
    this.name = name;
    this.sink = sink;
    this.limits = limits;
    this.onOverflow = onOverflow;
  }

  /**
   * Starts a queue and its draining virtual thread.
   *
   * @param name what the stream is, for the log line
   * @param sink writes a frame to the stream
   * @param limits how far the stream may fall behind
   * @param onOverflow closes the connection when the stream fell behind; must not block
   */
  public static StreamQueue start(String name, Sink sink, Limits limits, Runnable onOverflow) {
    StreamQueue q = new StreamQueue(
        requireNonNull(name, "name"),
        requireNonNull(sink, "sink"),
        requireNonNull(limits, "limits"),
        requireNonNull(onOverflow, "onOverflow"));
    Thread.ofVirtual().name("promptd-stream").start(q::drain);
    return q;
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
        ready.signal();
        return true;
      }
      dead = true;
      frames.clear();
      ready.signal();
    } finally {
      lock.unlock();
    }
    LOG.log(
        Level.WARNING,
        "closing " + name + ": its client fell behind (" + waiting
            + " messages waiting, the oldest for "
            + Duration.ofNanos(oldestNanos).toMillis() + " ms)");
    onOverflow.run();
    return false;
  }

  /**
   * Writes {@code frame} (an SSE comment, say) whenever the stream has been silent for
   * {@code every}, on the draining thread, so that a client that went away is noticed even when
   * there is nothing to say; {@code onGone} runs when a write fails, this one or any other. One
   * thread per stream, not a second one for the keep-alive.
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
      ready.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Stops taking frames; the ones queued are still written, then the draining thread ends. */
  public void close() {
    lock.lock();
    try {
      closing = true;
      ready.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Stops at once: queued frames are dropped. */
  public void abort() {
    lock.lock();
    try {
      dead = true;
      frames.clear();
      ready.signal();
    } finally {
      lock.unlock();
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

  /** Blocks until the draining thread has ended (closed and drained, failed, or given up). */
  public void awaitEnd() throws InterruptedException {
    ended.await();
  }

  private void drain() {
    try {
      for (byte[] frame = next(); frame != null; frame = next()) {
        sink.write(frame);
      }
    } catch (IOException | UncheckedIOException e) {
      abort(); // the client went away
      gone();
    } catch (RuntimeException e) {
      // A sink that fails otherwise (a server's response already completed under it, say) has ended
      // the stream just the same; this thread must not die with an uncaught exception on stderr.
      LOG.log(Level.DEBUG, () -> name + " ended: " + e);
      abort();
      gone();
    } catch (InterruptedException e) {
      abort();
      Thread.currentThread().interrupt();
    } finally {
      ended.countDown();
    }
  }

  private void gone() {
    Runnable r;
    lock.lock();
    try {
      r = onGone;
    } finally {
      lock.unlock();
    }
    r.run();
  }

  /**
   * The next frame to write: a queued one, the keep-alive frame after a silence, or null at the
   * end.
   */
  private byte @org.jspecify.annotations.Nullable [] next() throws InterruptedException {
    lock.lock();
    try {
      long silentSince = System.nanoTime();
      while (frames.isEmpty() && !closing && !dead) {
        if (keepAliveNanos == 0) {
          ready.await();
        } else {
          long left = silentSince + keepAliveNanos - System.nanoTime();
          if (left <= 0) {
            return keepAliveFrame;
          }
          ready.awaitNanos(left);
        }
      }
      Frame f = dead ? null : frames.pollFirst();
      return f == null ? null : f.bytes;
    } finally {
      lock.unlock();
    }
  }
}
