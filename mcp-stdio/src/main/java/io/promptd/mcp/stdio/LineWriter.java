package io.promptd.mcp.stdio;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Writes whole lines, each in one piece, through one writer thread, flushed whenever its queue runs dry. The reading
 * thread (the one that creates this writer) answers most requests itself: it collects its lines and hands them over
 * together before it reads more input, so a burst of pipelined requests costs one hand-off and one
 * write instead of one per answer. It never writes itself: a client that sends many requests before it reads any
 * answer would otherwise fill both pipes, and neither side could go on.
 */
final class LineWriter {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.stdio");
  /** A batch this large is handed over even if more input is waiting, to bound memory and latency. */
  private static final int BATCH_LIMIT = 64 * 1024;

  private final OutputStream out;
  private final Thread owner = Thread.currentThread();
  private final ByteArrayOutputStream batch = new ByteArrayOutputStream(8 * 1024);
  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean failed;

  LineWriter(OutputStream out) {
    this.out = new BufferedOutputStream(out, 64 * 1024);
    this.thread = Thread.ofPlatform().daemon().name("promptd-stdout").start(this::drain);
  }

  /** Writes one line, which must end with {@code '\n'}. Lines written after the stream failed are dropped. */
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
      queue.add(line);
    }
  }

  /** Hands the reading thread's collected lines to the writer thread; it calls this before each read of input. */
  void flushBatch() {
    if (batch.size() > 0) {
      queue.add(batch.toByteArray());
      batch.reset();
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
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes everything collected or queued, flushes, and stops the writer thread. Called by the reading thread. */
  void finish() throws InterruptedException {
    flushBatch();
    queue.add(new byte[0]);
    thread.join();
  }
}
