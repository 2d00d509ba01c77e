package io.promptd.mcp.http;

import java.io.IOException;

/** What serves the requests for one path of a listener (see {@link Router}); runs on a virtual thread. */
@FunctionalInterface
interface Route {
  /** Serves {@code ex}, blocking as needed; every path through it answers or fails the exchange. */
  void serve(Exchange ex) throws IOException, InterruptedException;

  /** Whether the start's hold ({@link HttpTransportBuilder#holdRequestsUntil}) applies; probes are never held. */
  default boolean held() {
    return true;
  }
}
