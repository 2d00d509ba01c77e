package io.promptd.mcp.http.internal.auth;

import io.promptd.mcp.spi.Caller;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a request to the MCP endpoint, decided from its {@code Authorization} headers: a
 * {@link Caller}, or a refusal with the status and {@code WWW-Authenticate} challenge to answer.
 * One provider per transport (no authentication, a static bearer token, or an OAuth resource
 * server); the endpoints ask it and never look at the header themselves.
 */
public interface Authenticator {
  /** Every request is let in, as {@link Caller#UNRESTRICTED}. */
  Authenticator NONE = authorization -> new Authenticated(Caller.UNRESTRICTED);

  /**
   * Authenticates a request.
   *
   * @param authorization every {@code Authorization} header of the request, in order (usually none
   *     or one)
   */
  Outcome authenticate(List<String> authorization);

  /**
   * Whether {@link #authenticate} may block (fetching an issuer's keys): then it never runs on a
   * parsing thread.
   */
  default boolean mayBlock() {
    return false;
  }

  /** What an authentication came to. */
  sealed interface Outcome permits Authenticated, Refused {}

  /** Let in, as {@code caller}. */
  record Authenticated(Caller caller) implements Outcome {}

  /**
   * Refused.
   *
   * @param status the HTTP status (400, 401 or 403)
   * @param challenge the {@code WWW-Authenticate} value to send, or null for none
   * @param message the refusal's message, safe to show (no token content)
   */
  record Refused(int status, @Nullable String challenge, String message) implements Outcome {}
}
