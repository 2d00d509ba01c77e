package io.promptd.mcp.stdio;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client that writes requests without end and never reads stdout: the server must stop reading
 * (back-pressure) once its bounded writer queue is full, instead of buffering answers until the
 * heap runs out.
 */
class StdioBackPressureTest {
  private static final byte[] PING =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".getBytes(UTF_8);
  /**
   * What the server may hold before it stops reading: its read buffer plus the queue of answer
   * batches.
   */
  private static final long BOUND = 64L * 1024 + (LineWriter.QUEUE_CAPACITY + 2) * 64L * 1024 * 2;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aClientThatDoesNotReadStopsTheServerReading() throws Exception {
    AtomicLong consumed = new AtomicLong();
    CountDownLatch drain = new CountDownLatch(1);
    InputStream endless = new InputStream() {
      private int pos;

      @Override
      public int read() {
        throw new UnsupportedOperationException("read(byte[], int, int) only");
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (drain.getCount() == 0) {
          return -1; // the client stops: end of input
        }
        for (int i = 0; i < len; i++) {
          b[off + i] = PING[pos];
          pos = (pos + 1) % PING.length;
        }
        consumed.addAndGet(len);
        return len;
      }
    };
    OutputStream stuck = new OutputStream() {
      @Override
      public void write(int b) throws InterruptedIOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws InterruptedIOException {
        try {
          drain.await(); // nobody reads stdout until the test says so
        } catch (InterruptedException e) {
          throw new InterruptedIOException();
        }
      }
    };
    try (McpServer server = McpServer.builder().build()) {
      Thread reader = Thread.ofPlatform().name("stdio-reader").start(() -> {
        try {
          StdioTransport.create(server, endless, stuck).run();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // Blocked with input still available: only the full writer queue can hold the reading thread.
      await(() -> reader.getState() == Thread.State.WAITING, "the reading thread to wait for room");
      long held = consumed.get();
      assertThat(held).isLessThan(BOUND);
      assertThat(reader.getState()).isEqualTo(Thread.State.WAITING);
      assertThat(consumed.get()).isEqualTo(held);
      drain.countDown();
      reader.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(reader.isAlive()).isFalse();
    }
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      LockSupport.parkNanos(
          TimeUnit.MILLISECONDS.toNanos(5)); // a thread's state cannot be waited on; polled
    }
  }
}
