package io.promptd.mcp.http.internal.sse;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.exchange.CallerKey;
import io.promptd.mcp.http.internal.exchange.Eras;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.SseWriter;
import io.promptd.mcp.http.internal.mcp.McpEndpoint;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StreamQueue;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The 2024-11-05 HTTP+SSE transport, kept for older clients and bridges: {@code GET /sse} opens a
 * session and its event stream, whose first event ({@code endpoint}) names
 * {@code /messages?sessionId=…}; every client message is POSTed there and answered 202, and
 * everything the server says (responses, notifications) goes out as {@code message} events on the
 * stream. The session lives exactly as long as its stream: when the stream closes (the client left,
 * its keep-alive failed, it fell behind, the server stops), the session ends.
 *
 * <p>The session is held by the process serving the stream; it is never shared with other replicas,
 * so a POST that reaches another replica is answered 404 (the deployment must route a client to one
 * replica: sticky sessions). Any legacy version can be negotiated by {@code initialize}, as the
 * core decides; the session's id is 256 random bits.
 *
 * <p>Each caller ({@link CallerKey}) may hold a quota of the sessions: a caller at its quota that
 * opens another stream loses the stream of its session idle longest (no POST being served), so that
 * one caller cannot take every place. When a few callers at their quota fill the global limit
 * together, a new stream takes the place of the idlest of the caller holding the most here.
 */
public final class SseTransportEndpoint {
  /** Where a client opens its stream. */
  public static final String STREAM_PATH = "/sse";
  /** Where a client POSTs its messages, with {@code ?sessionId=}. */
  public static final String MESSAGES_PATH = "/messages";

  private static final Base64.Encoder ID_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final McpServer server;
  private final int maxBodyBytes;
  private final Duration keepAlive;
  private final StreamQueue.Limits limits;
  private final int maxSessions;
  private final int perCaller;
  private final IntSupplier otherSessions;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  /**
   * Sessions whose endpoint event is on its way but which are not in {@link #sessions} yet: a
   * client fast enough to POST in that moment waits for the registration instead of being told the
   * session is unknown.
   */
  private final Map<String, CountDownLatch> opening = new ConcurrentHashMap<>();

  /**
   * One client's session: the core's session, the stream everything it says goes to, and how long
   * it has been idle (for its owner's quota).
   */
  private record Session(
      String id,
      ServerSession core,
      StreamQueue queue,
      @Nullable String subject,
      String owner,
      AtomicInteger posting,
      AtomicLong lastActive) {
    Session(
        String id, ServerSession core, StreamQueue queue, @Nullable String subject, String owner) {
      this(id, core, queue, subject, owner, new AtomicInteger(), new AtomicLong(System.nanoTime()));
    }

    void send(Message message) {
      queue.offer(SseWriter.frame(
          null, message)); // dropped once the stream has ended: the session ends with it
    }

    /** Marks the start of a POST; pair with {@link #release()}. */
    void acquire() {
      posting.incrementAndGet();
      lastActive.set(System.nanoTime());
    }

    void release() {
      lastActive.set(System.nanoTime());
      posting.decrementAndGet();
    }
  }

  /**
   * @param maxSessions how many sessions may be open at once, counting {@code otherSessions}
   * @param perCaller how many of them one caller may hold here
   * @param otherSessions how many Streamable HTTP sessions are open: one budget for both
   */
  public SseTransportEndpoint(
      McpServer server,
      int maxBodyBytes,
      Duration keepAlive,
      StreamQueue.Limits limits,
      int maxSessions,
      int perCaller,
      IntSupplier otherSessions) {
    this.server = server;
    this.maxBodyBytes = maxBodyBytes;
    this.keepAlive = keepAlive;
    this.limits = limits;
    this.maxSessions = maxSessions;
    this.perCaller = perCaller;
    this.otherSessions = otherSessions;
  }

  /** How many sessions are open now. */
  public int size() {
    return sessions.size();
  }

  /**
   * Serves a request to {@link #STREAM_PATH} or {@link #MESSAGES_PATH}, once the gate has admitted
   * it (see {@link SseRoute}).
   */
  void serve(Exchange ex) throws IOException, InterruptedException {
    ex.transport(RequestEvent.Transport.HTTP_SSE);
    ex.describe(RequestEvent.Era.LEGACY, null, null);
    boolean stream = ex.path().equals(STREAM_PATH);
    String allowed = stream ? "GET" : "POST";
    if (!ex.method().equals(allowed)) {
      ex.setHeader("Allow", allowed);
      ex.refuse(405, "Method Not Allowed: use " + allowed + " on " + ex.path());
    } else if (!Eras.legacyVersionOk(ex.header(Eras.PROTOCOL_VERSION_HEADER))) {
      ex.refuse(400, "Bad Request: unsupported MCP-Protocol-Version for the HTTP+SSE transport");
    } else if (stream) {
      open(ex);
    } else {
      post(ex);
    }
  }

  /** {@code GET /sse}: a new session, served until its stream ends. */
  private void open(Exchange ex) throws InterruptedException {
    if (!Guard.accepts(ex.headers("Accept"), "text/event-stream")) {
      ex.refuse(406, "Not Acceptable: " + STREAM_PATH + " is text/event-stream");
      return;
    }
    String owner = CallerKey.of(ex);
    // The caller's own idlest session goes first, so that a caller at its quota goes on at its own
    // expense; then, when the global limit is reached, that of the caller holding the most.
    if (!makeRoom(owner, null)) {
      refuseOverQuota(ex);
      return;
    }
    if (sessions.size() + otherSessions.getAsInt() >= maxSessions) {
      ex.refuse(503, "Service unavailable: too many open sessions; try again later");
      return;
    }
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String id = ID_ENCODER.encodeToString(bytes);
    SseWriter writer = ex.startSse();
    StreamQueue queue = StreamQueue.start(
        "an HTTP+SSE session's stream", writer::writeFrame, limits, () -> ex.abort(writer));
    // The endpoint event goes first: nothing the session says can be queued before the session
    // exists. A POST that reads it before the session is registered waits for the registration
    // (opening).
    CountDownLatch registered = new CountDownLatch(1);
    opening.put(id, registered);
    Session session;
    try {
      queue.offer(("event: endpoint\ndata: " + MESSAGES_PATH + "?sessionId=" + id + "\n\n")
          .getBytes(StandardCharsets.UTF_8));
      ServerSession core =
          server.openSession(message -> queue.offer(SseWriter.frame(null, message)));
      core.audience("session:" + id);
      session = new Session(id, core, queue, ex.caller().subject(), owner);
      sessions.put(id, session);
      if (!makeRoom(owner, session)) {
        // Lost a race with the caller's other new streams, all of them in use: this one ends at
        // once.
        sessions.remove(id, session);
        queue.close();
      }
    } finally {
      registered.countDown();
      opening.remove(id);
    }
    try {
      queue.keepAlive(keepAlive, SseWriter.commentFrame(), queue::close);
      queue.awaitEnd();
    } finally {
      sessions.remove(id, session);
      session.core().close();
      queue.close();
      writer.close();
      ex.end(writer);
    }
  }

  /** {@code POST /messages?sessionId=…}: one message for a session, answered on its stream. */
  private void post(Exchange ex) throws IOException {
    String id = sessionId(ex.query());
    if (id == null) {
      ex.refuse(
          400,
          "Bad Request: the sessionId query parameter is required (the endpoint event of "
              + STREAM_PATH + " names the URL to POST to)");
      return;
    }
    if (!Guard.isJson(ex.header("Content-Type"))) {
      ex.refuse(415, "Unsupported Media Type: the body must be application/json");
      return;
    }
    Session s = sessions.get(id);
    CountDownLatch registering = s == null ? opening.get(id) : null;
    if (registering != null) {
      try {
        registering.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      s = sessions.get(id);
    }
    if (s == null || !Objects.equals(s.subject(), ex.caller().subject())) {
      // Another subject's session is answered exactly like an unknown one: its id reveals nothing.
      ex.refuse(
          404,
          "Not Found: unknown session; open " + STREAM_PATH
              + " for a new one (an HTTP+SSE session is"
              + " served only by the server holding its stream)");
      return;
    }
    s.acquire();
    try {
      post(ex, s);
    } finally {
      s.release();
    }
  }

  /** A POST to the live session {@code s}. */
  private void post(Exchange ex, Session s) throws IOException {
    byte[] body = ex.declaredLength() > maxBodyBytes ? null : ex.body(maxBodyBytes);
    if (body == null) {
      ex.setHeader("Connection", "close"); // the rest of the body was not read
      ex.refuse(413, "Content Too Large: the body exceeds " + maxBodyBytes + " bytes");
      return;
    }
    Incoming in = MessageCodec.decode(body, 0, body.length);
    McpEndpoint.describe(ex, RequestEvent.Era.LEGACY, in, server);
    Call call = s.core().receive(in, ex.caller());
    if (call.mayBlock()) {
      ex.status(202); // taken: the answer follows on the stream, and this thread serves it
      deliver(s, call.run(s::send));
      return;
    }
    Reply reply = call.run(s::send);
    ex.answered(reply);
    if (reply.hint() == Reply.Hint.REJECTED
        && reply.response() instanceof ErrorResponse e
        && e.id() == null) {
      // Unreadable input (no id to answer on the stream): the POST is refused with the error
      ex.reply(reply);
    } else {
      deliver(s, reply);
      ex.status(202);
    }
  }

  /**
   * Brings {@code owner} under its quota, counting {@code added} (null before a new session is
   * registered, which then needs a place): ends the streams of its sessions idle longest. False,
   * ending nothing, when too many are in use.
   */
  private boolean makeRoom(String owner, @Nullable Session added) {
    List<Session> evicted;
    synchronized (this) {
      List<Session> mine = new ArrayList<>();
      for (Session s : sessions.values()) {
        if (s.owner().equals(owner)) {
          mine.add(s);
        }
      }
      int excess = mine.size() - perCaller + (added == null ? 1 : 0);
      evicted = new ArrayList<>();
      if (excess > 0) {
        String addedId = added == null ? null : added.id();
        mine.removeIf(s -> s.id().equals(addedId) || s.posting().get() > 0);
        if (mine.size() < excess) {
          return false;
        }
        mine.sort(Comparator.comparingLong(s -> s.lastActive().get()));
        evicted.addAll(mine.subList(0, excess));
        evicted.forEach(s -> sessions.remove(s.id(), s));
      }
      // Full: the caller holding the most gives way, so that a few at their quota lock nobody out.
      while (added == null && sessions.size() + otherSessions.getAsInt() >= maxSessions) {
        Session idlest = idlestOfTheLargestHolder();
        if (idlest == null) {
          break;
        }
        sessions.remove(idlest.id(), idlest);
        evicted.add(idlest);
      }
    }
    evicted.forEach(s -> s.queue().close()); // its stream ends, and the session with it
    return true;
  }

  /**
   * The session idle longest (no POST being served) of the caller holding the most sessions here
   * that has one, or null when none is idle. Holds the lock.
   */
  private @Nullable Session idlestOfTheLargestHolder() {
    Map<String, Integer> held = new HashMap<>();
    Map<String, Session> idlest = new HashMap<>();
    for (Session s : sessions.values()) {
      held.merge(s.owner(), 1, Integer::sum);
      if (s.posting().get() == 0) {
        idlest.merge(s.owner(), s, (a, b) -> idleLonger(b, a) ? b : a);
      }
    }
    Session chosen = null;
    int most = 0;
    for (Map.Entry<String, Session> e : idlest.entrySet()) {
      int n = held.getOrDefault(e.getKey(), 0);
      Session s = e.getValue();
      if (chosen == null || n > most || (n == most && idleLonger(s, chosen))) {
        chosen = s;
        most = n;
      }
    }
    return chosen;
  }

  private static boolean idleLonger(Session a, Session b) {
    return a.lastActive().get() - b.lastActive().get() < 0;
  }

  private void refuseOverQuota(Exchange ex) {
    ex.refuse(
        429,
        "Too Many Requests: this client holds " + perCaller
            + " open sessions, all in use; close a stream before opening another");
  }

  /** Puts what the core answered on the session's stream. */
  private static void deliver(Session s, Reply reply) {
    if (reply.due()) {
      s.queue().offer(SseWriter.frame(null, reply.encode(false)));
    }
  }

  /** The {@code sessionId} parameter of a query string, or null. The value is never logged. */
  public static @Nullable String sessionId(@Nullable String query) {
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&", -1)) {
      if (pair.startsWith("sessionId=")) {
        String raw = pair.substring("sessionId=".length());
        String value;
        try {
          value = URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          value = raw; // a broken escape: no session has such an id, so it is answered 404
        }
        return value.isEmpty() ? null : value;
      }
    }
    return null;
  }

  /** Ends every session's stream (the server is stopping); each session ends as its stream does. */
  public void closeAll() {
    for (Session s : List.copyOf(sessions.values())) {
      s.queue().close();
    }
  }
}
