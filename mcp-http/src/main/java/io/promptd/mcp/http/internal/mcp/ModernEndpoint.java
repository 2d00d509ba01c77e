package io.promptd.mcp.http.internal.mcp;

import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.ResponseStream;
import io.promptd.mcp.http.internal.exchange.Runner;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.spi.StreamQueue;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The modern era (2026-07-28) over HTTP: no sessions; each POST goes to the server's shared
 * {@link StatelessEndpoint} with its metadata headers. {@code subscriptions/listen} is answered
 * with a long-lived SSE stream; a request that may block and is still running after
 * {@code streamAfter} moves to one too (one shared timer decides, no thread per request), and the
 * client closing any response stream cancels its request.
 */
public final class ModernEndpoint {
  private final StatelessEndpoint endpoint;
  private final Duration keepAlive;
  private final Duration streamAfter;
  private final StreamQueue.Limits limits;
  private final ScheduledExecutorService timer;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong cancelled = new AtomicLong();

  public ModernEndpoint(
      McpServer server, Duration keepAlive, Duration streamAfter, StreamQueue.Limits limits) {
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

  void post(Exchange ex, Incoming body, RequestHeaders headers, Runner runner) {
    Call call = endpoint.receive(body, headers, ex.caller());
    runner.run(call.mayBlock(), () -> serve(ex, call));
  }

  private void serve(Exchange ex, Call call) {
    inFlight.incrementAndGet();
    ResponseStream stream = new ResponseStream(ex, call::cancel, limits, keepAlive);
    // Only a call that may block can outlive streamAfter; the timer's task only starts a thread to
    // open the stream, so a slow client never holds the timer up.
    ScheduledFuture<?> opener = call.mayBlock()
        ? timer.schedule(
            () -> Thread.ofVirtual().start(stream::open),
            streamAfter.toNanos(),
            TimeUnit.NANOSECONDS)
        : null;
    try {
      Reply reply = call.run(stream::send);
      if (reply.hint() == Reply.Hint.CANCELLED) {
        cancelled.incrementAndGet();
      }
      ResponseStream.answer(ex, stream, reply);
    } finally {
      if (opener != null) {
        opener.cancel(false);
      }
      inFlight.decrementAndGet();
    }
  }

  /** Ends every open listen stream gracefully, with its final response. */
  public void closeAll() {
    endpoint.endStreams();
  }

  /** Stops the timer. */
  public void close() {
    timer.shutdownNow();
  }

  /** How many requests are being served now. */
  public int inFlight() {
    return inFlight.get();
  }

  /** How many requests ended cancelled (their client closed the response stream). */
  public long cancelled() {
    return cancelled.get();
  }
}
