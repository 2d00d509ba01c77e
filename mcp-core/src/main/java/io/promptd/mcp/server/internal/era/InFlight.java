package io.promptd.mcp.server.internal.era;

import org.jspecify.annotations.Nullable;

/**
 * One request from acceptance to response. Cancelling, starting and finishing exclude each other,
 * so that a cancellation that overtakes the request stops it from starting, and one arriving as it
 * finishes cannot interrupt whatever its thread does next.
 */
final class InFlight {
  private @Nullable Thread thread;
  private boolean cancelled;
  private boolean finished;

  /**
   * Binds the request to the thread about to run it; false when it was cancelled before it started.
   */
  synchronized boolean start(Thread runner) {
    if (cancelled) {
      return false;
    }
    thread = runner;
    return true;
  }

  synchronized void cancel() {
    if (!finished) {
      cancelled = true;
      Thread running = thread;
      if (running != null) {
        running.interrupt();
      }
    }
  }

  /** Marks the request finished; returns whether it was cancelled first. */
  synchronized boolean finish() {
    finished = true;
    thread = null;
    return cancelled;
  }
}
