package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.StreamQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The answer to one POSTed request that may become an event stream: an outbound that opens the SSE
 * response on first use (or when {@link #open()} is called) and cancels the request when the client
 * goes away. Messages go through the stream's own queue, so whoever sends them never waits for the
 * client; a client that falls behind is disconnected and its request cancelled. Once
 * {@link #finish()} ran, no stream is opened any more; {@link #answer} then writes the reply as
 * plain JSON, or as the stream's last event. Used by 2026-07-28 requests (slow ones, listen
 * streams) and by legacy requests that send the client a request of the server's own (elicitation).
 */
public final class ResponseStream {
  private final Exchange ex;
  private final Runnable cancel;
  private final StreamQueue.Limits limits;
  private final Duration keepAlive;
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable Opened opened;
  private boolean finished;

  public ResponseStream(
      Exchange ex, Runnable cancel, StreamQueue.Limits limits, Duration keepAlive) {
    this.ex = ex;
    this.cancel = cancel;
    this.limits = limits;
    this.keepAlive = keepAlive;
  }

  public void send(Message message) {
    Opened o = opened();
    if (o == null) {
      throw new UncheckedIOException(new IOException("the request has been answered"));
    }
    if (!o.queue().offer(SseWriter.frame(null, message))) {
      cancel.run(); // closing the stream is the client's way to cancel
      throw new UncheckedIOException(new IOException("the event stream has closed"));
    }
  }

  /**
   * Opens the stream now unless the request has been answered (a request that runs long moves to a
   * stream).
   */
  public void open() {
    opened();
  }

  /** Opens the stream unless the request has been answered; returns it, or null. */
  private @Nullable Opened opened() {
    lock.lock();
    try {
      if (opened == null && !finished) {
        SseWriter w = ex.startSse();
        StreamQueue queue = StreamQueue.start("a response stream", w::writeFrame, limits, () -> {
          ex.abort(w);
          cancel.run();
        });
        opened = new Opened(w, queue);
        queue.keepAlive(keepAlive, SseWriter.commentFrame(), cancel);
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
  private @Nullable Opened finish() {
    lock.lock();
    try {
      finished = true;
      return opened;
    } finally {
      lock.unlock();
    }
  }

  /** Sends the reply: as plain JSON when no stream was opened, else as the stream's last event. */
  public static void answer(Exchange ex, ResponseStream stream, Reply reply) {
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
}
