package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.SessionStore;
import java.time.Instant;

/**
 * Where legacy sessions read the time: a monotonic clock for the idle timeout held in this process,
 * and the wall clock for what a {@link SessionStore} shares between replicas. Tests give a clock
 * they can move forward, so that idle expiry is tested without waiting for it.
 */
public interface SessionClock {
  /** The system's clocks. */
  SessionClock SYSTEM = new SessionClock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public Instant now() {
      return Instant.now();
    }
  };

  /** Like {@link System#nanoTime()}: only differences mean anything. */
  long nanoTime();

  /** Like {@link Instant#now()}. */
  Instant now();
}
