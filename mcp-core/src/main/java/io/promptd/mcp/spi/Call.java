package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;

/**
 * One unit of input, accepted by the core and ready to be served exactly once. Accepting registers
 * a request as in flight, so that a cancellation read right after it (before any worker runs it)
 * still finds it.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public interface Call {
  /**
   * Whether serving may block (a renderer doing I/O, a {@code subscriptions/listen}, a batch). A
   * transport may run a call that cannot block on the thread that reads input; one that may block
   * must run elsewhere so that reading, and with it cancellation, goes on.
   */
  boolean mayBlock();

  /**
   * Serves the input on the calling thread, blocking until it is done.
   *
   * @param stream where messages tied to this input go before its answer (a
   *     {@code subscriptions/listen} stream)
   * @return what to write
   */
  Reply run(Outbound stream);

  /**
   * Cancels the call: its work is interrupted and its answer suppressed. The client went away, or
   * asked.
   */
  void cancel();

  /** A call whose reply is already decided. */
  static Call done(Reply reply) {
    return new Call() {
      @Override
      public boolean mayBlock() {
        return false;
      }

      @Override
      public Reply run(Outbound stream) {
        return reply;
      }

      @Override
      public void cancel() {
        // nothing runs
      }
    };
  }
}
