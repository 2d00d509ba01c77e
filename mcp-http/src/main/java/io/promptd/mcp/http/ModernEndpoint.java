package io.promptd.mcp.http;

import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.spi.StreamQueue;
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
  private final StreamQueue.Limits limits;
  private final ScheduledExecutorService timer;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong cancelled = new AtomicLong();

  ModernEndpoint(McpServer server, Duration keepAlive, Duration streamAfter, StreamQueue.Limits limits) {
    this.endpoint = server.openStateless();
    this.limits = limits;
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

  void post(Exchange ex, Incoming body, RequestHeaders headers, Runner runner) {
    Call call = endpoint.receive(body, headers, ex.caller());
    runner.run(call.mayBlock(), () -> serve(ex, call));
  }

  private void serve(Exchange ex, Call call) {
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
    Opened opened = stream.finish();
    if (opened == null) {
      ex.reply(reply);
      return;
    }
    ex.answered(reply);
    if (reply.hasBody()) {
      opened.queue().offer(SseWriter.frame(null, reply.encode(false)));
    }
    opened.queue().close();
    try {
      opened.queue().awaitEnd(); // what was queued, the answer last, is written
    } catch (InterruptedException e) {
      opened.queue().abort();
      Thread.currentThread().interrupt();
    }
    opened.writer().close();
    ex.end(opened.writer());
  }

  private record Opened(SseWriter writer, StreamQueue queue) {}

  /**
   * An outbound that opens the SSE response on first use (or when {@link #open()} is called) and cancels the request
   * when the client goes away. Messages go through the stream's own queue, so whoever sends them never waits for the
   * client; a client that falls behind is disconnected and its request cancelled. Once {@link #finish()} ran, no
   * stream is opened any more.
   */
  private final class LazyStream {
    private final Exchange ex;
    private final Runnable cancel;
    private final ReentrantLock lock = new ReentrantLock();
    private @Nullable Opened opened;
    private boolean finished;

    LazyStream(Exchange ex, Runnable cancel) {
      this.ex = ex;
      this.cancel = cancel;
    }

    void send(Message message) {
      Opened o = open();
      if (o == null) {
        throw new UncheckedIOException(new IOException("the request has been answered"));
      }
      if (!o.queue().offer(SseWriter.frame(null, message))) {
        cancel.run(); // closing the stream is the client's way to cancel
        throw new UncheckedIOException(new IOException("the event stream has closed"));
      }
    }

    /** Opens the stream unless the request has been answered; returns it, or null. */
    @Nullable Opened open() {
      lock.lock();
      try {
        if (opened == null && !finished) {
          SseWriter w = ex.startSse();
          StreamQueue queue = StreamQueue.start("a 2026-07-28 response stream", w::writeFrame, limits, () -> {
            ex.abort(w);
            cancel.run();
          });
          opened = new Opened(w, queue);
          w.keepAlive(keepAlive, cancel);
          if (!w.comment()) { // commits the headers now, so the client knows a stream is coming
            cancel.run();
          }
        }
        return opened;
      } finally {
        lock.unlock();
      }
    }

    /** Marks the request answered; returns the stream if one was opened. */
    @Nullable Opened finish() {
      lock.lock();
      try {
        finished = true;
        return opened;
      } finally {
        lock.unlock();
      }
    }
  }
}
