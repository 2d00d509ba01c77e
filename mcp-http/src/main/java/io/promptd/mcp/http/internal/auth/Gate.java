package io.promptd.mcp.http.internal.auth;

import io.promptd.mcp.http.internal.exchange.Exchange;
import org.jspecify.annotations.Nullable;

/**
 * What a request to the MCP port passes before it is served: a running server, then Host and Origin
 * (the {@link Guard}), then, for the MCP endpoints, the transport's one {@link Authenticator}.
 * Closed (every request gets 503) until the port is known and once the transport stops.
 */
public final class Gate {
  private volatile @Nullable Guard guard;
  private volatile Authenticator authenticator = Authenticator.NONE;
  private volatile boolean stopping;

  /** Opens the gate once the port is known; until then every request gets 503. */
  public void open(Guard guard, Authenticator authenticator) {
    this.authenticator = authenticator;
    this.guard = guard; // last: a request that sees the guard sees the authenticator it goes with
  }

  /** From now on every new request gets 503. */
  public void close() {
    stopping = true;
  }

  /** Whether requests are served now: opened and not stopping. */
  public boolean running() {
    return guard != null && !stopping;
  }

  /** Whether the gate has been opened (a stopping gate counts). */
  public boolean opened() {
    return guard != null;
  }

  public boolean stopping() {
    return stopping;
  }

  /**
   * Whether authenticating may block, so that a request must not be served on the thread that
   * parsed it.
   */
  public boolean authMayBlock() {
    return authenticator.mayBlock();
  }

  /** A running server, and Host and Origin allowed; false after refusing the request. */
  public boolean hostAllowed(Exchange ex) {
    Guard g = guard;
    if (g == null || stopping) {
      ex.refuse(503, "Service unavailable: the server is not running");
      return false;
    }
    String forbidden = g.forbidden(ex.authority(), ex.header("Origin"));
    if (forbidden != null) {
      ex.refuse(403, forbidden);
      return false;
    }
    return true;
  }

  /**
   * The checks every MCP request passes (running server, Host, Origin, credentials); false after
   * refusing it.
   */
  public boolean admitted(Exchange ex) {
    if (guard == null || !hostAllowed(ex)) {
      return false;
    }
    switch (authenticator.authenticate(ex.headers("Authorization"))) {
      case Authenticator.Authenticated(var caller) -> {
        ex.caller(caller);
        return true;
      }
      case Authenticator.Refused(int status, String challenge, String message) -> {
        if (challenge != null) {
          ex.setHeader("WWW-Authenticate", challenge);
        }
        ex.refuse(status, message);
        return false;
      }
    }
  }

  /**
   * Why Host or Origin is refused (403), or null when both pass; null too while the gate is not
   * open.
   */
  @Nullable
  public String forbidden(Exchange ex) {
    Guard g = guard;
    return g == null ? null : g.forbidden(ex.authority(), ex.header("Origin"));
  }
}
