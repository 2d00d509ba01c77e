package io.promptd.mcp.http;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.jspecify.annotations.Nullable;

/**
 * The MCP endpoint as a Jetty handler: safety checks first (Host, Origin, bearer token, method, Accept, size), then the
 * era is decided and the request goes to the legacy or the modern endpoint. A POST whose body has arrived and whose
 * call cannot block (the core decides) is served on the thread that parsed it; everything else (streams, bodies still
 * arriving, calls that may block) on its own virtual thread with plain blocking code.
 */
final class McpHandler extends Handler.Abstract {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  /** Liveness: 200 while the server runs. */
  static final String HEALTHZ = "/healthz";
  /** Readiness: 200 when every readiness check passes, else 503 naming the ones that fail. */
  static final String READYZ = "/readyz";

  private final String path;
  private final int maxBodyBytes;
  private final LegacyEndpoint legacy;
  private final ModernEndpoint modern;
  private final SseTransportEndpoint sse;
  private final Telemetry telemetry;
  private final ExecutorService workers = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("promptd-http-", 0).factory());
  private final @Nullable Hold hold;
  private final @Nullable CatalogPage catalog;
  /** When the hold ends at the latest ({@link System#nanoTime()}), set by {@link #guard} (before the guard). */
  private volatile long holdDeadline;
  private volatile @Nullable Guard guard;
  private volatile @Nullable ResourceServer oauth;
  private volatile boolean stopping;
  /** Runs work that cannot block right here, on the parsing thread; work that may block on a virtual thread. */
  private final Runner inline = (mayBlock, work) -> {
    if (!mayBlock) {
      work.run();
      return;
    }
    try {
      workers.execute(work);
    } catch (RejectedExecutionException e) {
      work.run(); // shutting down: finish it here rather than drop it
    }
  };

  /**
   * Requests that arrive before {@code opened} completes wait for it, for at most {@code atMost} from the start.
   *
   * @param opened completes when the server is ready to answer
   * @param atMost how long a start may hold requests
   */
  record Hold(CompletableFuture<?> opened, Duration atMost) {}

  McpHandler(String path, int maxBodyBytes, LegacyEndpoint legacy, ModernEndpoint modern, SseTransportEndpoint sse,
      Telemetry telemetry, @Nullable Hold hold, @Nullable CatalogPage catalog) {
    // handle() only hands the exchange to a virtual thread: saying so lets Jetty call it on the thread that parsed
    // the request, instead of first dispatching it to another thread (two hand-offs per request).
    super(InvocationType.NON_BLOCKING);
    this.path = path;
    this.maxBodyBytes = maxBodyBytes;
    this.legacy = legacy;
    this.modern = modern;
    this.sse = sse;
    this.telemetry = telemetry;
    this.hold = hold;
    this.catalog = catalog;
  }

  /**
   * Sets the checks once the port is known; until then every request gets 503.
   *
   * @param oauth the OAuth resource server that authenticates requests instead of the guard's token, or null
   */
  void guard(Guard guard, @Nullable ResourceServer oauth) {
    Hold h = hold;
    if (h != null) {
      holdDeadline = System.nanoTime() + h.atMost().toNanos();
    }
    this.oauth = oauth;
    this.guard = guard;
  }

  @Override
  public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
    Exchange ex = new Exchange(request, response, callback, telemetry);
    try {
      if (held(ex)) {
        workers.execute(() -> serve(ex, () -> {
          awaitOpening();
          route(ex);
        }));
      } else if (!servedInline(ex)) {
        workers.execute(() -> serve(ex));
      }
    } catch (RejectedExecutionException e) {
      ex.refuse(503, "Service unavailable: the server is shutting down");
    } catch (RuntimeException e) {
      failed(ex, e);
    }
    return true;
  }

  /**
   * Serves a POST on the thread that parsed it when that cannot block: its body has arrived whole, and the core says
   * its call cannot block (answered from memory) — no hand-off to another thread, and the answer is written without
   * waiting. Returns false, having done nothing that matters, when the exchange must go to a virtual thread.
   */
  private boolean servedInline(Exchange ex) {
    if (!ex.method().equals("POST") || !ex.path().equals(path) || stopping || oauth != null) {
      return false; // with OAuth, checking a token may fetch the issuer's keys: a virtual thread's work
    }
    if (!admitted(ex) || !postHeadersOk(ex)) {
      return true; // refused
    }
    if (ex.declaredLength() > maxBodyBytes) {
      tooLarge(ex);
      return true;
    }
    byte[] body = ex.bodyIfArrived(maxBodyBytes);
    if (body == null) {
      workers.execute(() -> serve(ex, () -> postBody(ex, Runner.HERE))); // the rest is on its way
    } else {
      postBody(ex, body, inline);
    }
    return true;
  }

  /** Whether {@code ex} must wait for the start's hold: not a probe, and the hold neither over nor timed out. */
  private boolean held(Exchange ex) {
    Hold h = hold;
    // guard is set after holdDeadline: a started handler reads the deadline it was given
    return h != null && guard != null && !h.opened().isDone() && (ex.path().equals(path) || !isProbe(ex.path()))
        && System.nanoTime() - holdDeadline < 0;
  }

  private static boolean isProbe(String p) {
    return p.equals(HEALTHZ) || p.equals(READYZ);
  }

  /** Waits until the hold is over: its future completed, or its time is up. */
  private void awaitOpening() throws InterruptedException {
    Hold h = hold;
    long left = holdDeadline - System.nanoTime();
    if (h == null || left <= 0) {
      return;
    }
    try {
      h.opened().get(left, TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException | CancellationException e) {
      // over either way: served as things are
    }
  }

  /** From now on every new request gets 503. */
  void stopAccepting() {
    stopping = true;
    workers.shutdown();
  }

  /**
   * Waits up to {@code grace} for the requests in flight, running {@code endStreams} now and then so that a stream
   * opened just before {@link #stopAccepting()} is ended too; then interrupts whatever is left.
   *
   * @return whether everything finished in time
   */
  boolean drain(Duration grace, Runnable endStreams) throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    do {
      endStreams.run();
      if (workers.awaitTermination(50, TimeUnit.MILLISECONDS)) {
        return true;
      }
    } while (System.nanoTime() < deadline);
    workers.shutdownNow();
    return false;
  }

  private void serve(Exchange ex) {
    serve(ex, () -> route(ex));
  }

  private void serve(Exchange ex, Work work) {
    try {
      work.run();
    } catch (InterruptedException e) {
      ex.fail(e);
    } catch (IOException | RuntimeException e) {
      failed(ex, e);
    }
  }

  private static void failed(Exchange ex, Exception e) {
    LOG.log(Level.WARNING, "HTTP " + ex.method() + " failed", e);
    if (ex.committed()) {
      ex.fail(e);
    } else {
      ex.refuse(500, "Internal error"); // the details stay in the log
    }
  }

  /** Work on a virtual thread, which may block. */
  @FunctionalInterface
  private interface Work {
    void run() throws IOException, InterruptedException;
  }

  private void route(Exchange ex) throws IOException, InterruptedException {
    if (!ex.path().equals(path) && isProbe(ex.path())) {
      health(ex);
      return;
    }
    ResourceServer rs = oauth;
    if (rs != null && rs.isMetadataPath(ex.path())) {
      if (hostAllowed(ex)) { // served without a token: it tells clients how to get one
        rs.serveMetadata(ex);
      }
      return;
    }
    if (!ex.path().equals(path) && SseTransportEndpoint.serves(ex.path())) {
      ex.transport(RequestEvent.Transport.HTTP_SSE); // refusals too are logged as this transport's
      if (admitted(ex)) { // the old HTTP+SSE transport: the same checks as the MCP endpoint
        sse.serve(ex);
      }
      return;
    }
    CatalogPage page = catalog;
    if (page != null && !ex.path().equals(path) && page.serves(ex.path())) {
      if (hostAllowed(ex)) { // the page's files hold no library content: no token, but Host and Origin checked
        page.serve(ex, Guard.loopbackHost(ex.authority()));
      }
      return;
    }
    if (!ex.path().equals(path)) {
      ex.refuse(404, "Not Found: the MCP endpoint is " + path);
      return;
    }
    if (!admitted(ex)) {
      return;
    }
    switch (ex.method()) {
      case "POST" -> {
        if (postHeadersOk(ex)) {
          postBody(ex, Runner.HERE);
        }
      }
      case "GET" -> {
        ex.describe(RequestEvent.Era.LEGACY, null, null);
        legacy.get(ex);
      }
      case "DELETE" -> {
        ex.describe(RequestEvent.Era.LEGACY, null, null);
        legacy.delete(ex);
      }
      default -> {
        ex.setHeader("Allow", "GET, POST, DELETE");
        ex.refuse(405, "Method Not Allowed: use POST (or GET and DELETE for a legacy session)");
      }
    }
  }

  /**
   * {@code /healthz} and {@code /readyz}: no token needed and nothing said beyond the failing checks' names, but Host
   * and Origin are checked as for the MCP endpoint. They raise no request event.
   */
  private void health(Exchange ex) {
    Guard g = guard;
    if (g == null || stopping) {
      ex.probe(503, Telemetry.readinessBody(List.of("server running")));
      return;
    }
    String forbidden = g.forbidden(ex.authority(), ex.header("Origin"));
    if (forbidden != null) {
      ex.refuse(403, forbidden);
    } else if (!ex.method().equals("GET")) {
      ex.setHeader("Allow", "GET");
      ex.refuse(405, "Method Not Allowed: use GET");
    } else if (ex.path().equals(HEALTHZ)) {
      ex.probe(200, Telemetry.aliveBody());
    } else {
      List<String> failing = telemetry.notReady();
      ex.probe(failing.isEmpty() ? 200 : 503, Telemetry.readinessBody(failing));
    }
  }

  /** The checks every request passes (running server, Host, Origin, token); false after refusing it. */
  private boolean admitted(Exchange ex) {
    Guard g = guard;
    if (g == null || !hostAllowed(ex)) {
      return false;
    }
    ResourceServer rs = oauth;
    if (rs != null) {
      return rs.admit(ex);
    }
    if (!g.authorized(ex.header("Authorization"))) {
      ex.setHeader("WWW-Authenticate", "Bearer");
      ex.refuse(401, "Unauthorized: a valid bearer token is required");
      return false;
    }
    return true;
  }

  /** A running server, and Host and Origin allowed; false after refusing the request. */
  private boolean hostAllowed(Exchange ex) {
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

  /** A POST's Accept and Content-Type; false after refusing it. */
  private static boolean postHeadersOk(Exchange ex) {
    if (!Guard.accepts(ex.headers("Accept"), "application/json")
        || !Guard.accepts(ex.headers("Accept"), "text/event-stream")) {
      ex.refuse(406, "Not Acceptable: Accept must list application/json and text/event-stream");
      return false;
    }
    if (!Guard.isJson(ex.header("Content-Type"))) {
      ex.refuse(415, "Unsupported Media Type: the body must be application/json");
      return false;
    }
    return true;
  }

  private void tooLarge(Exchange ex) {
    ex.setHeader("Connection", "close"); // we did not read the rest of the body
    ex.refuse(413, "Content Too Large: the body exceeds " + maxBodyBytes + " bytes");
  }

  /** Reads the body, blocking, then serves it. */
  private void postBody(Exchange ex, Runner runner) throws IOException {
    byte[] body = ex.declaredLength() > maxBodyBytes ? null : ex.body(maxBodyBytes);
    if (body == null) {
      tooLarge(ex);
    } else {
      postBody(ex, body, runner);
    }
  }

  private void postBody(Exchange ex, byte[] body, Runner runner) {
    Incoming in = MessageCodec.decode(body, 0, body.length);
    RequestHeaders headers = new RequestHeaders(ex.header(Eras.PROTOCOL_VERSION_HEADER),
        ex.header(Eras.METHOD_HEADER), ex.header(Eras.NAME_HEADER), ex.remoteAddress());
    if (modern.claims(headers, in)) {
      describe(ex, RequestEvent.Era.MODERN, in);
      modern.post(ex, in, headers, runner);
    } else if (in instanceof Incoming.Invalid invalid && ex.header(Eras.SESSION_HEADER) == null) {
      describe(ex, RequestEvent.Era.NONE, in);
      ex.reply(Reply.rejected(invalid.error(), true, null)); // no session: no version in force
      // (Within a session the session answers, under its version's rule for an unreadable id, as stdio does.)
    } else if (ex.header(Eras.SESSION_HEADER) != null) {
      describe(ex, RequestEvent.Era.LEGACY, in);
      legacy.post(ex, in, runner);
    } else if (in instanceof Incoming.Single(Request r) && r.method().equals("initialize")) {
      describe(ex, RequestEvent.Era.LEGACY, in);
      legacy.initialize(ex, r);
    } else {
      describe(ex, RequestEvent.Era.NONE, in);
      ex.refuse(400, "Bad Request: Mcp-Session-Id header is required (send initialize first, or send a 2026-07-28"
          + " request with MCP-Protocol-Version)");
    }
  }

  /** Notes the era, method and prompt of a decoded body for its request event: map look-ups, no second parse. */
  static void describe(Exchange ex, RequestEvent.Era era, Incoming in) {
    switch (in) {
      case Incoming.Single(Request r) -> ex.describe(era, r.method(), promptOf(r.method(), r.params()));
      case Incoming.Single(Notification n) -> ex.describe(era, n.method(), null);
      default -> ex.describe(era, null, null);
    }
  }

  /** The prompt a {@code prompts/get} or a prompt argument's {@code completion/complete} names, or null. */
  private static @Nullable String promptOf(String method, JsonObject params) {
    if (method.equals("prompts/get")) {
      return params.get("name") instanceof JsonString name ? name.value() : null;
    }
    if (method.equals("completion/complete") && params.get("ref") instanceof JsonObject ref
        && ref.get("type") instanceof JsonString type && type.value().equals("ref/prompt")) {
      return ref.get("name") instanceof JsonString name ? name.value() : null;
    }
    return null;
  }
}
