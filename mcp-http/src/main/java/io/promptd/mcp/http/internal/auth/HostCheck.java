package io.promptd.mcp.http.internal.auth;

import io.promptd.mcp.http.internal.exchange.Exchange;
import org.jspecify.annotations.Nullable;

/**
 * A listener's check of a request's {@code Host} (and {@code Origin}) headers, against DNS
 * rebinding.
 */
@FunctionalInterface
public interface HostCheck {
  /** Why the request must be refused with 403, or null when it may be served. */
  @Nullable
  String forbidden(Exchange ex);

  /**
   * The admin listener's check: bound to a loopback address, only loopback names in {@code Host}
   * (any port), so that a web page cannot read it through DNS rebinding; bound elsewhere (a scraper
   * in a cluster names it as it likes), none.
   */
  static HostCheck admin(String bindHost) {
    if (!Loopback.isLoopback(bindHost)) {
      return ex -> null;
    }
    return ex -> Guard.loopbackHost(ex.authority()) ? null : "Forbidden: Host header not allowed";
  }
}
