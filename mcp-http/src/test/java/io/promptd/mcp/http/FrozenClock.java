package io.promptd.mcp.http;

import io.promptd.mcp.http.internal.session.SessionClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** A session clock that stands still until a test moves it: idle expiry without waiting for it. */
final class FrozenClock implements SessionClock {
  private final long startNanos = System.nanoTime();
  private final Instant start = Instant.now();
  private final AtomicLong elapsed = new AtomicLong();

  /** Moves the clock forward. */
  void advance(Duration by) {
    elapsed.addAndGet(by.toNanos());
  }

  @Override
  public long nanoTime() {
    return startNanos + elapsed.get();
  }

  @Override
  public Instant now() {
    return start.plusNanos(elapsed.get());
  }
}
