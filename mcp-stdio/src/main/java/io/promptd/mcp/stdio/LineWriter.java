package io.promptd.mcp.stdio;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Writes whole lines from many threads through one writer thread: each message is written in one piece, and the
 * stream is flushed whenever the queue runs dry, so a burst of responses costs one flush, not one per message.
 */
final class LineWriter {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.stdio");

  private final OutputStream out;
  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean failed;

  LineWriter(OutputStream out) {
    this.out = out;
    this.thread = Thread.ofPlatform().daemon().name("promptd-stdout").start(this::drain);
  }

  /** Queues one line, which must end with {@code '\n'}. Lines written after the stream failed are dropped. */
  void write(byte[] line) {
    if (!failed) {
      queue.add(line);
    }
  }

  private void drain() {
    try {
      while (true) {
        byte[] line = queue.take();
        if (line.length == 0) { // the end marker: real lines always hold at least '\n'
          out.flush();
          return;
        }
        out.write(line);
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

  /** Writes everything queued, flushes, and stops the writer thread. */
  void finish() throws InterruptedException {
    queue.add(new byte[0]);
    thread.join();
  }
}
