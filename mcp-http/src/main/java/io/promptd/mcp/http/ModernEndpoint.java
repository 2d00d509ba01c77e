package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The modern era (2026-07-28) over HTTP: no sessions; each POST goes to the server's shared {@link StatelessEndpoint}
 * with its metadata headers. {@code subscriptions/listen} is answered with a long-lived SSE stream; a request that may
 * block and is still running after {@code streamAfter} moves to one too (one shared timer decides, no thread per
 * request), and the client closing any response stream cancels its request.
 */
final class ModernEndpoint {
  private final StatelessEndpoint endpoint;
  private final Duration keepAlive;
  private final Duration streamAfter;
  private final ScheduledExecutorService timer;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong cancelled = new AtomicLong();

  ModernEndpoint(McpServer server, Duration keepAlive, Duration streamAfter) {
    this.endpoint = server.openStateless();
    this.keepAlive = keepAlive;
    this.streamAfter = streamAfter;
    ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
      Thread thread = new Thread(r, "promptd-http-stream-after");
      thread.setDaemon(true);
      return thread;
    });
    t.setRemoveOnCancelPolicy(true); // most requests finish first: their timers must not pile up
    this.timer = t;
  }

  /** Whether a POST belongs to the modern era; see {@link StatelessEndpoint#claims}. */
  boolean claims(RequestHeaders headers, Incoming body) {
    return endpoint.claims(headers, body);
  }

  void post(Exchange ex, Incoming body, RequestHeaders headers) {
    Call call = endpoint.receive(body, headers);
    inFlight.incrementAndGet();
    LazyStream stream = new LazyStream(ex, call::cancel);
    // Only a call that may block can outlive streamAfter; the timer's task only starts a thread to open the stream,
    // so a slow client never holds the timer up.
    ScheduledFuture<?> opener = call.mayBlock()
        ? timer.schedule(() -> Thread.ofVirtual().start(stream::open), streamAfter.toNanos(), TimeUnit.NANOSECONDS)
        : null;
    try {
      Reply reply = call.run(stream::send);
      if (reply.hint() == Reply.Hint.CANCELLED) {
        cancelled.incrementAndGet();
      }
      answer(ex, stream, reply);
    } finally {
      if (opener != null) {
        opener.cancel(false);
      }
      inFlight.decrementAndGet();
    }
  }

  /** Ends every open listen stream gracefully, with its final response. */
  void closeAll() {
    endpoint.endStreams();
  }

  /** Stops the timer. */
  void close() {
    timer.shutdownNow();
  }

  /** How many requests are being served now. */
  int inFlight() {
    return inFlight.get();
  }

  /** How many requests ended cancelled (their client closed the response stream). */
  long cancelled() {
    return cancelled.get();
  }

  /** Sends the reply: as plain JSON when no stream was opened, else as the stream's last event. */
  private static void answer(Exchange ex, LazyStream stream, Reply reply) {
    SseWriter writer = stream.finish();
    if (writer == null) {
      ex.reply(reply);
      return;
    }
    if (reply.hasBody() && !writer.broken()) {
      try {
        writer.send(null, reply.encode(false));
      } catch (UncheckedIOException e) {
        // the client left just as the stream ended
      }
    }
    writer.close();
    ex.end(writer);
  }

  /**
   * An outbound that opens the SSE response on first use (or when {@link #open()} is called) and cancels the request
   * when the client goes away. Once {@link #finish()} ran, no stream is opened any more.
   */
  private final class LazyStream {
    private final Exchange ex;
    private final Runnable cancel;
    private final ReentrantLock lock = new ReentrantLock();
    private @Nullable SseWriter writer;
    private boolean finished;

    LazyStream(Exchange ex, Runnable cancel) {
      this.ex = ex;
      this.cancel = cancel;
    }

    void send(Message message) {
      SseWriter w = open();
      if (w == null) {
        throw new UncheckedIOException(new IOException("the request has been answered"));
      }
      try {
        w.send(null, message);
      } catch (UncheckedIOException e) {
        cancel.run(); // closing the stream is the client's way to cancel
        throw e;
      }
    }

    /** Opens the stream unless the request has been answered; returns it, or null. */
    @Nullable SseWriter open() {
      lock.lock();
      try {
        if (writer == null && !finished) {
          SseWriter w = ex.startSse();
          writer = w;
          w.keepAlive(keepAlive, cancel);
          if (!w.comment()) { // commits the headers now, so the client knows a stream is coming
            cancel.run();
          }
        }
        return writer;
      } finally {
        lock.unlock();
      }
    }

    /** Marks the request answered; returns the stream if one was opened. */
    @Nullable SseWriter finish() {
      lock.lock();
      try {
        finished = true;
        return writer;
      } finally {
        lock.unlock();
      }
    }
  }
}
