package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request and its response, with blocking reads and writes for the virtual thread serving
 * it. It sees no server type: it reads and writes through its {@link HttpIo}.
 */
public final class Exchange {
  private final HttpIo io;
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final AtomicBoolean completed = new AtomicBoolean();
  /** Whether the response's last write was issued: an exchange has one answer, written once. */
  private final AtomicBoolean lastWritten = new AtomicBoolean();
  /**
   * Whether that write is still in flight: Jetty requires the handler's callback to complete after
   * it, so a failure meanwhile is left to the write's own callback.
   */
  private volatile boolean lastWriteInFlight;

  private Caller caller = Caller.UNRESTRICTED;
  // What the request event will say; written by whoever serves the exchange, read once when it
  // ends.
  private final Telemetry telemetry;
  private final long startNanos;
  private RequestEvent.Era era = RequestEvent.Era.NONE;
  private RequestEvent.Transport transport = RequestEvent.Transport.STREAMABLE_HTTP;
  private @Nullable String rpcMethod;
  private @Nullable String prompt;
  private volatile RequestEvent.Outcome outcome = RequestEvent.Outcome.OK;
  private volatile int status;
  private volatile int errorCode;
  private volatile boolean streaming;
  /** A probe's, an asset's or the admin listener's: raises no request event. */
  private boolean probe;

  /**
   * @param io the request to read and the response to write
   * @param silent whether the exchange raises no {@link RequestEvent} whatever it answers (the
   *     admin listener's)
   */
  public Exchange(HttpIo io, Telemetry telemetry, boolean silent) {
    this.io = io;
    this.probe = silent;
    this.telemetry = telemetry;
    this.startNanos = System.nanoTime();
  }

  /**
   * Notes what the request is, for its {@link RequestEvent}: the era, and the MCP method and prompt
   * it names.
   */
  public void describe(RequestEvent.Era era, @Nullable String rpcMethod, @Nullable String prompt) {
    this.era = era;
    this.rpcMethod = rpcMethod;
    this.prompt = prompt;
  }

  /**
   * Notes which transport serves the request, for its {@link RequestEvent} (Streamable HTTP unless
   * told).
   */
  public void transport(RequestEvent.Transport transport) {
    this.transport = transport;
  }

  /**
   * Notes how the core answered, for the {@link RequestEvent}, when the answer is not written by
   * {@link #reply}.
   */
  public void answered(Reply reply) {
    if (reply.hint() == Reply.Hint.CANCELLED) {
      outcome = RequestEvent.Outcome.CANCELLED;
    } else if (reply.response() instanceof ErrorResponse e) {
      outcome = RequestEvent.Outcome.ERROR;
      errorCode = e.code();
    } else {
      outcome = RequestEvent.Outcome.OK;
    }
  }

  /**
   * Who sent the request, once the guard has authenticated it ({@link Caller#UNRESTRICTED} without
   * auth).
   */
  public Caller caller() {
    return caller;
  }

  public void caller(Caller caller) {
    this.caller = caller;
  }

  public String method() {
    return io.method();
  }

  public String path() {
    return io.path();
  }

  /**
   * The request target's raw query string, or null; it may carry a session id, so it is never
   * logged.
   */
  @Nullable
  public String query() {
    return io.query();
  }

  /** The {@code Host} header, or the request target's authority (HTTP/2 has no Host header). */
  @Nullable
  public String authority() {
    return io.authority();
  }

  /** The first value of a header, or null. */
  @Nullable
  public String header(String name) {
    return io.header(name);
  }

  /**
   * The client's address: the peer's, or the forwarded one when the transport trusts a proxy
   * (Jetty's forwarded customizer has then rewritten it); null when unknown. Keys the completion
   * rate limit of unauthenticated clients.
   */
  @Nullable
  public String remoteAddress() {
    return io.remoteAddress();
  }

  /** Every value of a header, in order (a header may repeat). */
  public List<String> headers(String name) {
    return io.headers(name);
  }

  /** The declared body length, or -1 when unknown (chunked). */
  public long declaredLength() {
    return io.declaredLength();
  }

  /** The whole body if it has already arrived, or null: see {@link HttpIo#bodyIfArrived}. */
  public byte @Nullable [] bodyIfArrived(int max) {
    return io.bodyIfArrived(max);
  }

  /**
   * Reads the whole body, blocking; null when it is longer than {@code max}: see
   * {@link HttpIo#body}.
   */
  public byte @Nullable [] body(int max) throws IOException {
    return io.body(max);
  }

  public void setHeader(String name, String value) {
    io.setHeader(name, value);
  }

  /** Answers with a status and no body. */
  public void status(int status) {
    if (!lastWritten.compareAndSet(false, true)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "a second answer to one HTTP exchange was dropped",
          new IllegalStateException("answered twice"));
      return;
    }
    this.status = status;
    io.status(status);
    complete();
  }

  /**
   * Writes what the core decided: its body as {@code application/json}, with the status its hint
   * stands for (200 answered, 202 accepted, 400 rejected, 404 unknown method). A cancelled request,
   * whose answer is owed to nobody, gets an event stream that ends without an event: for a POSTed
   * request the transport allows only {@code text/event-stream} or {@code application/json} (and a
   * client may not expect a body-less 204).
   */
  public void reply(Reply reply) {
    answered(reply);
    if (reply.hint() == Reply.Hint.CANCELLED) {
      this.status = 200;
      io.status(200);
      sseHeaders();
      write(ByteBuffer.allocate(0));
      return;
    }
    int status = switch (reply.hint()) {
      case ANSWERED, CANCELLED -> 200;
      case ACCEPTED -> 202;
      case REJECTED -> 400;
      case UNKNOWN_METHOD -> 404;
    };
    if (!reply.hasBody()) {
      status(status);
      return;
    }
    Runnable release;
    try {
      release = AnswerBudget.SHARED.take(reply, AnswerBudget.WAIT_SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      release = null;
    }
    if (release == null) {
      busy(reply);
      return;
    }
    ByteBuffer body;
    try {
      body = reply.encodeBuffer(false);
    } catch (RuntimeException | Error e) {
      release.run();
      throw e;
    }
    this.status = status;
    io.status(status);
    io.setHeader("Content-Type", "application/json");
    write(body, release);
  }

  /**
   * Answers a request whose large answer found no room in the {@link AnswerBudget} in time: a
   * JSON-RPC error for its id, which the client may send again.
   */
  private void busy(Reply reply) {
    Response r = reply.response();
    ErrorResponse error = new ErrorResponse(
        r == null ? null : r.id(),
        ErrorCodes.INTERNAL_ERROR,
        "the server is busy sending other large answers: try again later",
        null);
    json(200, Wire.encode(error, null, false));
  }

  /** Answers with a JSON body. */
  public void json(int status, byte[] utf8) {
    json(status, ByteBuffer.wrap(utf8));
  }

  /** Answers with a JSON body, the buffer's bytes from its position to its limit. */
  public void json(int status, ByteBuffer utf8) {
    this.status = status;
    io.status(status);
    io.setHeader("Content-Type", "application/json");
    write(utf8);
  }

  /**
   * Refuses the request at the transport level: the core's refusal body (no id), and a safe
   * message.
   */
  public void refuse(int status, String message) {
    if (!io.bodyStarted() && (io.declaredLength() > 0 || io.header("Transfer-Encoding") != null)) {
      // The body was never read: the server drops the connection after answering, so say so, or the
      // client would send its next request on a connection about to close (and see no answer at
      // all).
      io.setHeader("Connection", "close");
    }
    outcome = RequestEvent.Outcome.REFUSED;
    ErrorResponse refusal = modern()
        // 2026-07-28 reserves -32000..-32019 for legacy use ("new implementations SHOULD NOT use
        // codes from this sub-range"): a refused request is an invalid request, a failure of the
        // server an internal error.
        ? new ErrorResponse(
            null,
            status >= 500 ? ErrorCodes.INTERNAL_ERROR : ErrorCodes.INVALID_REQUEST,
            message,
            null)
        : Wire.refusal(message);
    json(status, Wire.encode(refusal, null, false));
  }

  /**
   * Whether the request belongs to 2026-07-28 or later: read as one, or naming in
   * {@code MCP-Protocol-Version} a version that is not a legacy one (2026-07-28 clients send it on
   * every request; legacy clients only after {@code initialize}, and only legacy versions).
   */
  private boolean modern() {
    if (era == RequestEvent.Era.MODERN) {
      return true;
    }
    String version = io.header(Eras.PROTOCOL_VERSION_HEADER);
    return version != null
        && ProtocolVersion.of(version.trim()).map(ProtocolVersion::isModern).orElse(true);
  }

  /** Answers a health probe: JSON, never cached; it raises no {@link RequestEvent}. */
  public void probe(int status, byte[] json) {
    probe = true;
    io.setHeader("Cache-Control", "no-store");
    json(status, json);
  }

  /**
   * Answers with a mount's body (a page's file, metrics); like a probe, it raises no
   * {@link RequestEvent}.
   */
  public void asset(int status, String contentType, byte[] body) {
    probe = true;
    this.status = status;
    io.status(status);
    io.setHeader("Content-Type", contentType);
    write(ByteBuffer.wrap(body));
  }

  /** Starts a {@code text/event-stream} response; the caller owns the writer and must close it. */
  public SseWriter startSse() {
    status = 200;
    if (!streaming) {
      streaming = true;
      telemetry.streamOpened();
    }
    io.status(200);
    sseHeaders();
    return new SseWriter(io.stream());
  }

  private void sseHeaders() {
    io.setHeader("Content-Type", "text/event-stream");
    io.setHeader("Cache-Control", "no-cache");
    // Tells proxies such as nginx not to buffer the stream (spec: SHOULD).
    io.setHeader("X-Accel-Buffering", "no");
  }

  /**
   * Ends an exchange whose response was {@code writer}'s stream: failed when the client broke it,
   * else completed.
   */
  public void end(SseWriter writer) {
    if (writer.broken()) {
      fail(new IOException("client closed the event stream"));
    } else {
      complete();
    }
  }

  /**
   * Drops a stream whose client fell behind: the writer is marked broken and the connection is
   * aborted, which also fails a write blocked on it. Never blocks.
   */
  public void abort(SseWriter writer) {
    writer.abort();
    fail(new IOException("the client fell behind on its event stream"));
  }

  /** Ends the exchange successfully; idempotent. */
  void complete() {
    if (completed.compareAndSet(false, true)) {
      ended();
      io.succeeded();
    }
  }

  /**
   * Ends the exchange as failed (the connection is dropped); idempotent. While the last write is in
   * flight the write's own callback ends the exchange (completing Jetty's callback before that
   * write is a state error).
   */
  public void fail(Throwable cause) {
    if (lastWriteInFlight) {
      return;
    }
    failNow(cause);
  }

  private void failNow(Throwable cause) {
    if (completed.compareAndSet(false, true)) {
      if (outcome != RequestEvent.Outcome.REFUSED) {
        outcome = RequestEvent.Outcome.CANCELLED;
      }
      ended();
      io.failed(cause);
    }
  }

  /**
   * Counts the stream closed and tells the listeners about the request; runs once, as the exchange
   * ends.
   */
  private void ended() {
    if (streaming) {
      telemetry.streamClosed();
    }
    if (!telemetry.recording() || probe) {
      return;
    }
    long nanos = System.nanoTime() - startNanos;
    int code = errorCode;
    telemetry.finished(telemetry.events.event(
        Instant.now().minusNanos(nanos),
        transport,
        io.method(),
        era,
        rpcMethod,
        prompt,
        outcome,
        status,
        outcome == RequestEvent.Outcome.ERROR && code != 0
            ? OptionalInt.of(code)
            : OptionalInt.empty(),
        Duration.ofNanos(nanos),
        caller.subject()));
  }

  public boolean committed() {
    return io.committed();
  }

  /**
   * Writes the whole response without waiting; the exchange completes when the write does. A second
   * answer to the same exchange is dropped with a log line: the first one is on its way, and
   * writing after the last write breaks the connection's state for the next request on it.
   */
  private void write(ByteBuffer bytes) {
    write(bytes, () -> {});
  }

  /**
   * Writes the last bytes of the answer; {@code written} runs once they are written or the write
   * failed.
   */
  private void write(ByteBuffer bytes, Runnable written) {
    if (!lastWritten.compareAndSet(false, true)) {
      written.run();
      LOG.log(
          System.Logger.Level.WARNING,
          "a second answer to one HTTP exchange was dropped",
          new IllegalStateException("answered twice"));
      return;
    }
    lastWriteInFlight = true;
    // A failed write means the client went away: nothing to tell it.
    io.writeLast(
        bytes,
        () -> {
          lastWriteInFlight = false;
          written.run();
          complete();
        },
        cause -> {
          lastWriteInFlight = false;
          written.run();
          failNow(cause);
        });
  }
}
