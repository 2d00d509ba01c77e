package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.Outbound;
import io.promptd.mcp.server.ServerSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The modern era (2026-07-28): no sessions; each POST carries one request whose headers must match its body, served by
 * a short-lived {@link ServerSession}. {@code subscriptions/listen} is answered with a long-lived SSE stream; the client
 * closing any response stream cancels its request.
 */
final class ModernEndpoint {
  private final McpServer server;
  private final Duration keepAlive;
  private final Duration streamAfter;
  private final Set<ServerSession> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong cancelled = new AtomicLong();

  ModernEndpoint(McpServer server, Duration keepAlive, Duration streamAfter) {
    this.server = server;
    this.keepAlive = keepAlive;
    this.streamAfter = streamAfter;
  }

  void post(Exchange ex, Incoming body) {
    switch (body) {
      case Incoming.Single(Request r) -> request(ex, r);
      case Incoming.Single(Notification n) -> ex.status(202); // 2026-07-28 defines none over HTTP
      case Incoming.Single s -> ex.refuse(400, "Bad Request: clients must not send JSON-RPC responses in 2026-07-28");
      case Incoming.Batch b -> ex.json(400, new ErrorResponse(
          null, ErrorCodes.INVALID_REQUEST, "Invalid request: JSON-RPC batches are not allowed in 2026-07-28", null));
      case Incoming.Invalid invalid -> ex.json(400, invalid.error());
    }
  }

  /** Ends every in-flight request's session: open listen streams end with their final response. */
  void closeAll() {
    for (ServerSession s : open) {
      s.close();
    }
  }

  /** How many requests are being served now. */
  int inFlight() {
    return open.size();
  }

  /** How many requests ended cancelled (their client closed the response stream). */
  long cancelled() {
    return cancelled.get();
  }

  private void request(Exchange ex, Request r) {
    ErrorResponse rejected = ModernHeaders.check(r, ex.header(Eras.PROTOCOL_VERSION_HEADER),
        ex.header(ModernHeaders.METHOD_HEADER), ex.header(ModernHeaders.NAME_HEADER));
    if (rejected != null) {
      ex.json(400, rejected);
      return;
    }
    ServerSession session = server.openSession(Outbound.discard());
    open.add(session);
    LazyStream stream = new LazyStream(ex, () -> session.cancel(r.id()));
    // A request still running after streamAfter moves to an SSE stream, whose keep-alives reveal a client that went
    // away (closing the stream cancels the request). subscriptions/listen opens it with its first message.
    if (!r.method().equals("subscriptions/listen")) {
      // Not interrupted when the answer comes: an interrupt could break a write that has just begun.
      Thread.ofVirtual().start(() -> stream.openUnlessFinishedWithin(streamAfter));
    }
    try {
      Response response = session.handle(r, stream::send);
      if (response == null) {
        cancelled.incrementAndGet();
      }
      answer(ex, stream, response);
    } finally {
      open.remove(session);
      session.close();
    }
  }

  /** Sends the final response: as plain JSON when no stream was opened, else as the stream's last event. */
  private static void answer(Exchange ex, LazyStream stream, @Nullable Response response) {
    SseWriter writer = stream.finish();
    if (writer == null) {
      if (response == null) {
        ex.status(204);
      } else {
        ex.json(Eras.modernStatus(response), response);
      }
      return;
    }
    if (response != null && !writer.broken()) {
      try {
        writer.send(null, response);
      } catch (UncheckedIOException e) {
        // the client left just as the stream ended
      }
    }
    writer.close();
    LegacyEndpoint.finish(ex, writer);
  }

  /**
   * An outbound that opens the SSE response on first use (or when {@link #open()} is called) and cancels the request
   * when the client goes away. Once {@link #finish()} ran, no stream is opened any more.
   */
  private final class LazyStream {
    private final Exchange ex;
    private final Runnable cancel;
    private final ReentrantLock lock = new ReentrantLock();
    private final CountDownLatch answered = new CountDownLatch(1);
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
        answered.countDown();
      }
    }

    /** Opens the stream if the request is still running after {@code delay}. */
    void openUnlessFinishedWithin(Duration delay) {
      try {
        if (!answered.await(delay.toNanos(), TimeUnit.NANOSECONDS)) {
          open();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
