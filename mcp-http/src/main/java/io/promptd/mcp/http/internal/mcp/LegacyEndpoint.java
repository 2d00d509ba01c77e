package io.promptd.mcp.http.internal.mcp;

import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.exchange.CallerKey;
import io.promptd.mcp.http.internal.exchange.Eras;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.ResponseStream;
import io.promptd.mcp.http.internal.exchange.Runner;
import io.promptd.mcp.http.internal.exchange.SseWriter;
import io.promptd.mcp.http.internal.session.EventLog;
import io.promptd.mcp.http.internal.session.LegacySession;
import io.promptd.mcp.http.internal.session.SessionRegistry;
import io.promptd.mcp.http.internal.session.SharedSessions;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StreamQueue;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The legacy era (2025-03-26 to 2025-11-25): {@code initialize} opens a session and names it in
 * {@code Mcp-Session-Id}; later POSTs, the GET stream and DELETE must name it (400 without, 404
 * when unknown or expired). Requests are answered as {@code application/json}, or as an event
 * stream when the server asks the client something first (elicitation); anything the session says
 * unprompted goes to its GET stream, with event ids for {@code Last-Event-ID} resumption.
 */
public final class LegacyEndpoint {
  private static final int EVENT_LOG_CAPACITY = 256;

  private final McpServer server;
  private final SessionRegistry sessions;
  private final Duration keepAlive;
  private final StreamQueue.Limits limits;
  private final @Nullable SharedSessions shared;

  /**
   * @param shared replica-independent sessions (signed ids, a session store), or null for sessions
   *     of this process
   */
  public LegacyEndpoint(
      McpServer server,
      SessionRegistry sessions,
      Duration keepAlive,
      StreamQueue.Limits limits,
      @Nullable SharedSessions shared) {
    this.server = server;
    this.sessions = sessions;
    this.keepAlive = keepAlive;
    this.limits = limits;
    this.shared = shared;
  }

  /**
   * Opens a session with {@code initialize}; the id is issued only when initialization succeeds.
   */
  void initialize(Exchange ex, Request request) {
    String owner = CallerKey.of(ex);
    // The caller's own oldest idle session goes first: at its quota, a caller goes on at its own
    // expense, never at anyone else's, even when the global limit is reached.
    if (!sessions.makeRoom(owner)) {
      refuseOverQuota(ex);
      return;
    }
    if (!sessions.hasRoom()) {
      ex.refuse(503, "Service unavailable: too many open sessions; try again later");
      return;
    }
    SharedSessions sh = shared;
    String key = sh == null ? null : sh.newKey();
    EventLog events =
        sh == null || key == null ? new EventLog(EVENT_LOG_CAPACITY, limits) : sh.newLog();
    ServerSession session = server.openSession(events::publish);
    if (key != null) {
      session.audience("session:" + key);
    }
    Reply reply = session.receive(new Incoming.Single(request), ex.caller()).run(events::publish);
    if (reply.response() instanceof ResultResponse) {
      @Nullable String id;
      if (sh == null || key == null) {
        id = sessions.newId();
        session.audience("session:" + id);
        LegacySession ls =
            new LegacySession(id, session, events, ex.caller().subject(), owner, sessions.clock());
        if (!sessions.add(ls)) {
          id = null;
        }
      } else {
        id = sh.opened(key, session, events, ex.caller(), owner);
      }
      if (id == null) { // the caller's other sessions came in the meantime, all of them in use
        session.close();
        refuseOverQuota(ex);
        return;
      }
      ex.setHeader(Eras.SESSION_HEADER, id);
    } else {
      session.close();
    }
    ex.reply(reply);
  }

  private void refuseOverQuota(Exchange ex) {
    ex.refuse(
        429,
        "Too Many Requests: this client holds " + sessions.perCaller()
            + " open sessions, all in use; end one (DELETE) before opening another");
  }

  /**
   * A POST within a session: a request, a notification, a response, or (2025-03-26 only) a batch.
   */
  void post(Exchange ex, Incoming body, Runner runner) {
    LegacySession ls = session(ex);
    if (ls == null) {
      return;
    }
    ls.acquire();
    boolean handedOver = false;
    try {
      Call call = ls.session().receive(body, ex.caller());
      runner.run(call.mayBlock(), () -> {
        try {
          // A request of the server's own (elicitation) turns this POST's answer into an event
          // stream that carries it, the response last; the client's answer comes back on a POST of
          // its own. Notifications go to the session's GET stream as before.
          ResponseStream stream = new ResponseStream(ex, call::cancel, limits, keepAlive);
          Reply reply = call.run(Outbound.carryingRequests(message -> {
            if (message instanceof Request) {
              stream.send(message);
            } else {
              ls.events().publish(message);
            }
          }));
          if (shared != null) {
            shared.saveChanges(
                ls); // before answering: the client's next request may go to another replica
          }
          ResponseStream.answer(ex, stream, reply);
        } finally {
          ls.release();
        }
      });
      handedOver = true;
    } finally {
      if (!handedOver) {
        ls.release();
      }
    }
  }

  /** GET: the session's server-to-client stream; {@code Last-Event-ID} resumes it. */
  void get(Exchange ex) throws InterruptedException {
    if (!Guard.accepts(ex.headers("Accept"), "text/event-stream")) {
      ex.refuse(406, "Not Acceptable: the GET stream is text/event-stream");
      return;
    }
    LegacySession ls = session(ex);
    if (ls == null) {
      return;
    }
    String lastEventId = ex.header("Last-Event-ID");
    // Several GET streams may be open at once (the spec lets a client hold more than one; a client
    // reconnecting past a half-dead socket must not be locked out): each message goes to one of
    // them, the newest.
    boolean prime = ls.session()
        .negotiatedVersion()
        .map(v -> v.atLeast(ProtocolVersion.V2025_11_25))
        .orElse(false);
    ls.acquire();
    SseWriter writer = ex.startSse();
    try {
      StreamQueue queue = ls.events().attach(writer, lastEventId, prime, () -> ex.abort(writer));
      if (ls.closed()) {
        writer.close(); // lost a race with the session's end
      } else {
        queue.keepAlive(keepAlive, SseWriter.commentFrame(), () -> ls.events().detach(writer));
        queue.awaitEnd();
      }
    } finally {
      ls.events().detach(writer);
      writer.close();
      ls.release();
      ex.end(writer);
    }
  }

  /** DELETE: the client ends its session. */
  void delete(Exchange ex) {
    String id = ex.header(Eras.SESSION_HEADER);
    if (id == null) {
      ex.refuse(400, "Bad Request: Mcp-Session-Id header is required");
    } else if (!Eras.legacyVersionOk(ex.header(Eras.PROTOCOL_VERSION_HEADER))) {
      ex.refuse(400, "Bad Request: unsupported MCP-Protocol-Version");
    } else if (shared != null
        ? shared.delete(id, ex.caller())
        : owned(sessions.get(id), ex) != null && sessions.remove(id)) {
      ex.status(204);
    } else {
      ex.refuse(404, "Not Found: unknown or expired session");
    }
  }

  /**
   * The session if the request's caller may use it: another subject's session is answered exactly
   * like an unknown one, so that its id reveals nothing.
   */
  private static @Nullable LegacySession owned(@Nullable LegacySession ls, Exchange ex) {
    return ls != null && ls.belongsTo(ex.caller().subject()) ? ls : null;
  }

  /** The session a request names, or null after answering 400/404. */
  private @Nullable LegacySession session(Exchange ex) {
    String id = ex.header(Eras.SESSION_HEADER);
    if (id == null) {
      ex.refuse(400, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
      return null;
    }
    if (!Eras.legacyVersionOk(ex.header(Eras.PROTOCOL_VERSION_HEADER))) {
      ex.refuse(
          400,
          "Bad Request: unsupported MCP-Protocol-Version '"
              + ex.header(Eras.PROTOCOL_VERSION_HEADER) + "' for a session");
      return null;
    }
    boolean[] full = {false, false};
    LegacySession ls = shared != null
        ? shared.resolve(id, ex.caller(), CallerKey.of(ex), full)
        : owned(sessions.get(id), ex);
    if (full[0]) {
      ex.refuse(503, "Service unavailable: too many open sessions; try again later");
      return null;
    }
    if (full[1]) {
      refuseOverQuota(ex);
      return null;
    }
    if (ls == null) {
      ex.refuse(404, "Not Found: unknown or expired session; send initialize to start a new one");
    }
    return ls;
  }
}
