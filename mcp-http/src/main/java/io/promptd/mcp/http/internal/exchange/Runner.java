package io.promptd.mcp.http.internal.exchange;

/**
 * Where the rest of a request runs once the core has said whether its call may block: on the thread
 * that parsed it when it cannot, else on a virtual thread. On a virtual thread already,
 * {@link #HERE} runs everything in place.
 */
@FunctionalInterface
public interface Runner {
  /** Runs everything on the calling thread. */
  Runner HERE = (mayBlock, work) -> work.run();

  /** Runs {@code work}, which blocks only if {@code mayBlock}. */
  void run(boolean mayBlock, Runnable work);
}
