package io.promptd.mcp.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StreamQueueTest {
  @Test
  void writesInOrderAndDrainsWhatIsQueuedWhenClosed() throws Exception {
    List<String> written = new CopyOnWriteArrayList<>();
    StreamQueue q = StreamQueue.start(
        "test", f -> written.add(new String(f)), StreamQueue.Limits.DEFAULT, () -> {});
    for (int i = 0; i < 100; i++) {
      assertThat(q.offer(Integer.toString(i).getBytes())).isTrue();
    }
    q.close();
    q.awaitEnd();
    assertThat(written).hasSize(100).startsWith("0", "1").endsWith("99");
    assertThat(q.offer(new byte[1])).isFalse();
  }

  @Test
  void aStreamThatFallsBehindIsGivenUpWithoutBlockingTheSender() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger overflows = new AtomicInteger();
    StreamQueue q = StreamQueue.start(
        "test",
        f -> {
          writing.countDown();
          try {
            release.await(); // a client that does not read
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        new StreamQueue.Limits(2, Duration.ofMinutes(1)),
        overflows::incrementAndGet);
    assertThat(q.offer(new byte[] {1})).isTrue();
    assertThat(writing.await(10, TimeUnit.SECONDS))
        .isTrue(); // the first frame is stuck in the network
    assertThat(q.offer(new byte[] {2})).isTrue();
    assertThat(q.offer(new byte[] {3})).isTrue();
    assertThat(q.offer(new byte[] {4})).isFalse(); // a third waiting frame passes the bound
    assertThat(overflows.get()).isEqualTo(1);
    assertThat(q.failed()).isTrue();
    assertThat(q.offer(new byte[] {5})).isFalse();
    assertThat(overflows.get()).isEqualTo(1);
    release.countDown();
    q.awaitEnd();
  }

  @Test
  void aSinkFailingWithAnyExceptionEndsTheStreamQuietly() throws Exception {
    // Jetty throws IllegalStateException ("last already written") when a response completed under
    // the writer.
    StreamQueue q = StreamQueue.start(
        "test",
        f -> {
          throw new IllegalStateException("last already written");
        },
        StreamQueue.Limits.DEFAULT,
        () -> {});
    assertThat(q.offer(new byte[] {1})).isTrue();
    q.awaitEnd();
    assertThat(q.failed()).isTrue();
    assertThat(q.offer(new byte[] {2})).isFalse();
  }

  /** An idle stream holds no thread: the writing thread ends once the queue is empty. */
  @Test
  void theWritingThreadEndsWhenThereIsNothingToWriteAndStartsAgainForMore() throws Exception {
    List<Thread> writers = new CopyOnWriteArrayList<>();
    List<String> written = new CopyOnWriteArrayList<>();
    StreamQueue q = StreamQueue.start(
        "test",
        f -> {
          writers.add(Thread.currentThread());
          written.add(new String(f));
        },
        StreamQueue.Limits.DEFAULT,
        () -> {});
    assertThat(q.offer("first".getBytes())).isTrue();
    Poll.until(
        Duration.ofSeconds(20),
        Duration.ofMillis(10),
        () -> "first written",
        () -> !writers.isEmpty());
    Thread first = writers.getFirst();
    Poll.until(
        Duration.ofSeconds(20),
        Duration.ofMillis(10),
        () -> "the writing thread ended with nothing to write",
        () -> !first.isAlive());
    assertThat(q.offer("second".getBytes())).isTrue();
    q.close();
    q.awaitEnd();
    assertThat(written).containsExactly("first", "second");
    assertThat(writers.getLast()).isNotSameAs(first);
    assertThat(first.isVirtual()).isTrue();
  }

  /** A silent stream gets the keep-alive frame; a failing write then reports the client gone. */
  @Test
  void aSilentStreamIsKeptAliveAndAFailedKeepAliveSaysTheClientIsGone() throws Exception {
    List<String> written = new CopyOnWriteArrayList<>();
    AtomicReference<Boolean> failing = new AtomicReference<>(false);
    CountDownLatch gone = new CountDownLatch(1);
    StreamQueue q = StreamQueue.start(
        "test",
        f -> {
          if (failing.get()) {
            throw new IOException("the client went away");
          }
          written.add(new String(f));
        },
        StreamQueue.Limits.DEFAULT,
        () -> {});
    q.keepAlive(Duration.ofMillis(50), ": ping".getBytes(), gone::countDown);
    Poll.until(
        Duration.ofSeconds(20),
        Duration.ofMillis(10),
        () -> "two keep-alives written: " + written,
        () -> written.stream().filter(": ping"::equals).count() >= 2);
    failing.set(true);
    assertThat(gone.await(20, TimeUnit.SECONDS))
        .as("onGone after a failed write")
        .isTrue();
    q.awaitEnd();
    assertThat(q.failed()).isTrue();
    assertThat(q.offer(new byte[] {1})).isFalse();
  }

  /** Closing a stream that is silent, or aborting it, ends it at once. */
  @Test
  void closingOrAbortingAnIdleStreamEndsIt() throws Exception {
    StreamQueue closed = StreamQueue.start("test", f -> {}, StreamQueue.Limits.DEFAULT, () -> {});
    closed.keepAlive(Duration.ofMinutes(1), ": ping".getBytes(), () -> {});
    closed.close();
    closed.awaitEnd();
    assertThat(closed.failed()).isFalse();
    StreamQueue aborted = StreamQueue.start("test", f -> {}, StreamQueue.Limits.DEFAULT, () -> {});
    aborted.abort();
    aborted.awaitEnd();
    assertThat(aborted.failed()).isTrue();
  }

  @Test
  void limitsAreChecked() {
    Assertions.assertThatThrownBy(() -> new StreamQueue.Limits(0, Duration.ofSeconds(1)))
        .hasMessageContaining("StreamQueue.Limits.maxFrames");
  }
}
