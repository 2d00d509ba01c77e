package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.MessageCodec;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.jspecify.annotations.Nullable;

/**
 * The MCP endpoint as a Jetty handler. Each request is served on its own virtual thread with plain blocking code:
 * safety checks first (Host, Origin, bearer token, method, Accept, size), then the era is decided and the request goes
 * to the legacy or the modern endpoint.
 */
final class McpHandler extends Handler.Abstract {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final String path;
  private final int maxBodyBytes;
  private final LegacyEndpoint legacy;
  private final ModernEndpoint modern;
  private final ExecutorService workers = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("promptd-http-", 0).factory());
  private volatile @Nullable Guard guard;
  private volatile boolean stopping;

  McpHandler(String path, int maxBodyBytes, LegacyEndpoint legacy, ModernEndpoint modern) {
    // handle() only hands the exchange to a virtual thread: saying so lets Jetty call it on the thread that parsed
    // the request, instead of first dispatching it to another thread (two hand-offs per request).
    super(InvocationType.NON_BLOCKING);
    this.path = path;
    this.maxBodyBytes = maxBodyBytes;
    this.legacy = legacy;
    this.modern = modern;
  }

  /** Sets the checks once the port is known; until then every request gets 503. */
  void guard(Guard guard) {
    this.guard = guard;
  }

  @Override
  public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
    Exchange ex = new Exchange(request, response, callback);
    try {
      workers.execute(() -> serve(ex));
    } catch (RejectedExecutionException e) {
      ex.refuse(503, "Service unavailable: the server is shutting down");
    }
    return true;
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
    try {
      route(ex);
    } catch (InterruptedException e) {
      ex.fail(e);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "HTTP " + ex.method() + " failed", e);
      if (ex.committed()) {
        ex.fail(e);
      } else {
        ex.refuse(500, "Internal error"); // the details stay in the log
      }
    }
  }

  private void route(Exchange ex) throws IOException, InterruptedException {
    Guard g = guard;
    if (!ex.path().equals(path)) {
      ex.refuse(404, "Not Found: the MCP endpoint is " + path);
      return;
    }
    if (g == null || stopping) {
      ex.refuse(503, "Service unavailable: the server is not running");
      return;
    }
    String forbidden = g.forbidden(ex.authority(), ex.header("Origin"));
    if (forbidden != null) {
      ex.refuse(403, forbidden);
      return;
    }
    if (!g.authorized(ex.header("Authorization"))) {
      ex.setHeader("WWW-Authenticate", "Bearer");
      ex.refuse(401, "Unauthorized: a valid bearer token is required");
      return;
    }
    switch (ex.method()) {
      case "POST" -> post(ex);
      case "GET" -> legacy.get(ex);
      case "DELETE" -> legacy.delete(ex);
      default -> {
        ex.setHeader("Allow", "GET, POST, DELETE");
        ex.refuse(405, "Method Not Allowed: use POST (or GET and DELETE for a legacy session)");
      }
    }
  }

  private void post(Exchange ex) throws IOException {
    if (!Guard.accepts(ex.headers("Accept"), "application/json")
        || !Guard.accepts(ex.headers("Accept"), "text/event-stream")) {
      ex.refuse(406, "Not Acceptable: Accept must list application/json and text/event-stream");
      return;
    }
    if (!Guard.isJson(ex.header("Content-Type"))) {
      ex.refuse(415, "Unsupported Media Type: the body must be application/json");
      return;
    }
    byte[] body = ex.declaredLength() > maxBodyBytes ? null : ex.body(maxBodyBytes);
    if (body == null) {
      ex.setHeader("Connection", "close"); // we did not read the rest of the body
      ex.refuse(413, "Content Too Large: the body exceeds " + maxBodyBytes + " bytes");
      return;
    }
    Incoming in = MessageCodec.decode(body, 0, body.length);
    RequestHeaders headers = new RequestHeaders(ex.header(Eras.PROTOCOL_VERSION_HEADER),
        ex.header(Eras.METHOD_HEADER), ex.header(Eras.NAME_HEADER));
    if (modern.claims(headers, in)) {
      modern.post(ex, in, headers);
    } else if (in instanceof Incoming.Invalid invalid) {
      ex.reply(Reply.rejected(invalid.error(), true, null)); // no session consulted: no version in force
    } else if (ex.header(Eras.SESSION_HEADER) != null) {
      legacy.post(ex, in);
    } else if (in instanceof Incoming.Single(Request r) && r.method().equals("initialize")) {
      legacy.initialize(ex, r);
    } else {
      ex.refuse(400, "Bad Request: Mcp-Session-Id header is required (send initialize first, or send a 2026-07-28"
          + " request with MCP-Protocol-Version)");
    }
  }
}
