package io.promptd.mcp.http.internal.exchange;

import java.io.IOException;

/**
 * What serves the requests for one path of a listener (see {@link Router}); runs on a virtual
 * thread.
 */
@FunctionalInterface
public interface Route {
  /** Serves {@code ex}, blocking as needed; every path through it answers or fails the exchange. */
  void serve(Exchange ex) throws IOException, InterruptedException;

  /**
   * Whether the start's hold ({@link io.promptd.mcp.http.HttpTransportBuilder#holdRequestsUntil})
   * applies; probes are never held.
   */
  default boolean held() {
    return true;
  }
}
