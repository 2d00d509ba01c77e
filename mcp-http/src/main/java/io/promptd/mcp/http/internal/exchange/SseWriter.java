package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.spi.Wire;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Writes Server-Sent Events to one HTTP response, whole events at a time, from any thread. A failed
 * write means the client has gone: the writer is then broken and every later write fails fast.
 */
public final class SseWriter {
  private final OutputStream out;
  // A lock rather than synchronized: writes block on the network, and virtual threads should not
  // pin a carrier.
  private final ReentrantLock lock = new ReentrantLock();
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean broken;
  private volatile boolean closed;

  public SseWriter(OutputStream out) {
    this.out = out;
  }

  /** One message as an SSE event, with an event id or none. */
  public static byte[] frame(@Nullable String id, Message message) {
    return frame(id, Wire.encode(message, null, false));
  }

  /**
   * One JSON text (a message or a reply the core encoded) as an SSE event, with an event id or
   * none.
   */
  public static byte[] frame(@Nullable String id, byte[] json) {
    String head = (id == null ? "" : "id: " + id + "\n") + "event: message\ndata: ";
    byte[] start = head.getBytes(StandardCharsets.UTF_8);
    byte[] event = new byte[start.length + json.length + 2];
    System.arraycopy(start, 0, event, 0, start.length);
    System.arraycopy(json, 0, event, start.length, json.length);
    event[event.length - 2] = '\n';
    event[event.length - 1] = '\n';
    return event;
  }

  /**
   * A comment line, which clients ignore: commits the response headers where no event is due yet.
   */
  public static byte[] commentFrame() {
    return ":\n\n".getBytes(StandardCharsets.UTF_8);
  }

  /** An event with an id and empty data, so the client can resume from here (a "priming" event). */
  public static byte[] primeFrame(String id) {
    return ("id: " + id + "\ndata: \n\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes one frame, blocking while the network does; for a
   * {@link io.promptd.mcp.spi.StreamQueue}'s writing thread.
   *
   * @throws IOException when the client has gone
   */
  public void writeFrame(byte[] frame) throws IOException {
    try {
      write(frame);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Marks the stream broken without touching the network (the caller drops the connection);
   * idempotent.
   */
  public void abort() {
    broken = true;
    ended.countDown();
  }

  /** Sends a comment line, which clients ignore; returns false when the client has gone. */
  boolean comment() {
    try {
      write(":\n\n");
      return true;
    } catch (UncheckedIOException e) {
      return false;
    }
  }

  /** Ends the stream cleanly; idempotent. */
  public void close() {
    lock.lock();
    try {
      if (!closed && !broken) {
        closed = true;
        out.close();
      }
    } catch (IOException e) {
      broken = true;
    } finally {
      closed = true;
      lock.unlock();
      ended.countDown();
    }
  }

  boolean broken() {
    return broken;
  }

  public boolean ended() {
    return ended.getCount() == 0;
  }

  /** Blocks until the stream is closed or broken. */
  void awaitEnd() throws InterruptedException {
    ended.await();
  }

  private void write(String text) {
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  private void write(byte[] bytes) {
    lock.lock();
    try {
      if (broken || closed) {
        throw new UncheckedIOException(new IOException("event stream closed"));
      }
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      broken = true;
      ended.countDown();
      throw new UncheckedIOException(e);
    } catch (IllegalStateException e) {
      // The server completed the response under us (its connection ended): the stream is gone like
      // a broken one.
      broken = true;
      ended.countDown();
      throw new UncheckedIOException(new IOException("event stream ended", e));
    } finally {
      lock.unlock();
    }
  }
}
