package io.promptd.mcp.http.internal.jetty;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.jspecify.annotations.Nullable;

/**
 * Closes connections whose request head does not arrive whole in time, or whose body arrives too
 * slowly. Jetty's idle timeout starts again with every byte read, so a client trickling one header
 * line every few seconds would keep its connection, and a file descriptor of the server, for ever.
 * The deadline runs from a connection's opening for its first request, and from the first byte
 * after a response for each later one (a kept-alive connection that sends nothing is left to the
 * idle timeout); a request being served has none. While a request's body is being read, once the
 * read has taken longer than the head's deadline, the body must have come at the minimum rate on
 * average since the read began. A sweep looks at every open connection about four times per
 * deadline.
 */
public final class HeadDeadline implements Connection.Listener {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final long timeoutNanos;
  private final int minBodyRate;
  private final Map<Connection, Head> heads = new ConcurrentHashMap<>();
  private @Nullable ScheduledExecutorService sweeper;

  /** One connection's state, guarded by itself. */
  private static final class Head {
    private boolean serving;
    /**
     * When the head being awaited began ({@link System#nanoTime()}), valid while {@link #waiting}.
     */
    private long since;

    private boolean waiting;
    /**
     * The connection's byte count when its last response ended: more means a new head has begun.
     */
    private long bytesAtEnd;

    /** Whether the request being served is reading its body, since {@link #bodySince}. */
    private boolean body;

    private long bodySince;
    /** The connection's byte count when the body's read began. */
    private long bytesAtBody;

    Head(long now) {
      this.since = now;
      this.waiting = true;
    }
  }

  /**
   * @param timeout how long a request head may take to arrive whole; positive
   * @param minBodyRate the slowest a body may arrive, in bytes per second, once its read has taken
   *     {@code timeout}
   */
  public HeadDeadline(Duration timeout, int minBodyRate) {
    this.timeoutNanos = timeout.toNanos();
    this.minBodyRate = minBodyRate;
  }

  /** Starts sweeping. */
  public synchronized void start() {
    if (sweeper != null) {
      return;
    }
    ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "promptd-http-head-deadline");
      t.setDaemon(true);
      return t;
    });
    long period = Math.max(TimeUnit.MILLISECONDS.toNanos(50), timeoutNanos / 4);
    var unused = s.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.NANOSECONDS);
    sweeper = s;
  }

  /** Stops sweeping. */
  public synchronized void stop() {
    ScheduledExecutorService s = sweeper;
    if (s != null) {
      s.shutdownNow();
      sweeper = null;
    }
  }

  @Override
  public void onOpened(Connection connection) {
    heads.put(connection, new Head(System.nanoTime()));
  }

  @Override
  public void onClosed(Connection connection) {
    heads.remove(connection);
  }

  /** A request's head arrived on {@code connection}: no deadline while it is served. */
  public void started(Connection connection) {
    Head h = heads.get(connection);
    if (h != null) {
      synchronized (h) {
        h.serving = true;
        h.waiting = false;
      }
    }
  }

  /**
   * The request being served on {@code connection} starts reading its body: from now on it must
   * keep the rate.
   */
  void bodyStarted(Connection connection) {
    Head h = heads.get(connection);
    if (h != null) {
      long bytes = connection.getBytesIn();
      synchronized (h) {
        h.body = true;
        h.bodySince = System.nanoTime();
        h.bytesAtBody = bytes;
      }
    }
  }

  /** The body's read on {@code connection} ended, read whole or not. */
  void bodyEnded(Connection connection) {
    Head h = heads.get(connection);
    if (h != null) {
      synchronized (h) {
        h.body = false;
      }
    }
  }

  /**
   * The request on {@code connection} ended: the next head's deadline starts with its first byte.
   */
  public void ended(Connection connection) {
    Head h = heads.get(connection);
    if (h != null) {
      long bytes = connection.getBytesIn();
      synchronized (h) {
        h.serving = false;
        h.waiting = false;
        h.body = false;
        h.bytesAtEnd = bytes;
      }
    }
  }

  private void sweep() {
    long now = System.nanoTime();
    heads.forEach((connection, h) -> {
      if (late(connection, h, now)) {
        LOG.log(
            Level.DEBUG,
            "closing a connection whose request head did not arrive in time, or whose body came too"
                + " slowly");
        connection.getEndPoint().close();
      }
    });
  }

  /**
   * Whether {@code received} bytes in {@code elapsed} nanoseconds, past the head's deadline, are
   * below the rate.
   */
  private boolean tooSlow(long received, long elapsed) {
    return elapsed > timeoutNanos && received * 1e9 < (double) minBodyRate * elapsed;
  }

  private boolean late(Connection connection, Head h, long now) {
    long bytes = connection.getBytesIn();
    synchronized (h) {
      if (h.serving) {
        return h.body && tooSlow(bytes - h.bytesAtBody, now - h.bodySince);
      }
      if (!h.waiting && bytes > h.bytesAtEnd) {
        h.waiting = true; // a new head has begun since the last response
        h.since = now;
      }
      return h.waiting && now - h.since > timeoutNanos;
    }
  }
}
