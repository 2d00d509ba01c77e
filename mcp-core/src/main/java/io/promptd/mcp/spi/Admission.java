package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.Request;

/**
 * Which era takes one unit of input that arrived outside a stream of its own (an HTTP POST), as the
 * core decides it ({@code McpServer.admit}); a transport switches over it and serves the input
 * where it says.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public sealed interface Admission {
  /** A 2026-07-28 request, for the server's {@link StatelessEndpoint}. */
  record Stateless() implements Admission {}

  /**
   * A 2026-07-28 {@code subscriptions/listen}: stateless too, but its answer is a stream that stays
   * open until the client or the server ends it.
   *
   * @param request the listen request
   */
  record Listen(Request request) implements Admission {
    /** Checks the field. */
    public Listen {
      requireNonNull(request, "request");
    }
  }

  /** Legacy input within a session: the session answers it, under its own version. */
  record InSession() implements Admission {}

  /**
   * A legacy {@code initialize} outside any session: the transport opens a session for it.
   *
   * @param request the initialize request
   */
  record Initialize(Request request) implements Admission {
    /** Checks the field. */
    public Initialize {
      requireNonNull(request, "request");
    }
  }

  /**
   * Unreadable input with no session and so no version in force: answered with {@code reply}, no
   * era's.
   *
   * @param reply the error to answer with
   */
  record Rejected(Reply reply) implements Admission {
    /** Checks the field. */
    public Rejected {
      requireNonNull(reply, "reply");
    }
  }

  /**
   * Legacy input other than {@code initialize} without a session: the transport refuses it (HTTP
   * 400).
   */
  record NoSession() implements Admission {}
}
