package io.promptd.mcp.stdio;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Writes whole lines, each in one piece, through one writer thread, flushed whenever its queue runs
 * dry. The queue is bounded: when the client stops reading stdout, answers wait for room — the
 * reading thread with them, so input is no longer read (back-pressure) and memory does not grow —
 * while notifications, which must never hold up their sender, are dropped with a log line. The
 * reading thread (the one that creates this writer) answers most requests itself: it collects its
 * lines and hands them over together before it reads more input, so a burst of pipelined requests
 * costs one hand-off and one write instead of one per answer. It never writes itself: a client that
 * sends many requests before it reads any answer would otherwise fill both pipes, and neither side
 * could go on.
 */
final class LineWriter {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.stdio");
  /**
   * A batch this large is handed over even if more input is waiting, to bound memory and latency.
   */
  private static final int BATCH_LIMIT = 64 * 1024;
  /**
   * How many lines or batches may wait: at most this many times {@link #BATCH_LIMIT} bytes, plus
   * single lines.
   */
  static final int QUEUE_CAPACITY = 256;

  private final OutputStream out;
  private final Thread owner = Thread.currentThread();
  private final ByteArrayOutputStream batch = new ByteArrayOutputStream(8 * 1024);
  private final ArrayBlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final Thread thread;
  private volatile boolean failed;

  LineWriter(OutputStream out) {
    this.out = new BufferedOutputStream(out, 64 * 1024);
    this.thread = Thread.ofPlatform().daemon().name("promptd-stdout").start(this::drain);
  }

  /**
   * Writes one answer line, which must end with {@code '\n'}, waiting for room when the client is
   * not reading. Lines written after the stream failed are dropped.
   */
  void write(byte[] line) {
    if (failed) {
      return;
    }
    if (Thread.currentThread().equals(owner)) {
      batch.writeBytes(line);
      if (batch.size() >= BATCH_LIMIT) {
        flushBatch();
      }
    } else {
      put(line);
    }
  }

  /**
   * Writes one notification line if there is room, never waiting; a full queue drops it with a log
   * line.
   */
  void offer(byte[] line) {
    if (!failed && !queue.offer(line)) {
      LOG.log(Level.WARNING, "stdout is not being read: dropping a notification");
    }
  }

  /**
   * Hands the reading thread's collected lines to the writer thread; it calls this before each read
   * of input.
   */
  void flushBatch() {
    if (batch.size() > 0) {
      put(batch.toByteArray());
      batch.reset();
    }
  }

  private void put(byte[] lines) {
    try {
      queue.put(lines);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.log(Level.DEBUG, "interrupted while waiting for stdout: an answer was dropped");
    }
  }

  private void drain() {
    try {
      while (true) {
        byte[] lines = queue.take();
        if (lines.length == 0) { // the end marker: real lines always hold at least '\n'
          out.flush();
          return;
        }
        out.write(lines);
        if (queue.isEmpty()) {
          out.flush();
        }
      }
    } catch (IOException e) {
      failed = true;
      LOG.log(Level.WARNING, "stdout closed: {0}", e.getMessage());
      discardUntilEnd(); // whoever waits for room must not wait forever
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void discardUntilEnd() {
    try {
      while (queue.take().length > 0) {
        // dropped: nobody reads stdout any more
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Writes everything collected or queued, flushes, and stops the writer thread. Called by the
   * reading thread.
   */
  void finish() throws InterruptedException {
    flushBatch();
    queue.put(new byte[0]);
    thread.join();
  }
}
