package io.promptd.mcp.server;

import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ServerSession}: legacy session state, in-flight requests for cancellation, and the one place where
 * exceptions become error responses.
 */
final class SessionImpl implements ServerSession {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");
  private static final VarHandle LEGACY;

  static {
    try {
      LEGACY = MethodHandles.lookup().findVarHandle(SessionImpl.class, "legacy", LegacyState.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final McpServer server;
  private final Outbound sessionOutbound;
  private final Dispatcher dispatcher;
  private final Map<RequestId, InFlight> inFlight = new ConcurrentHashMap<>();
  private volatile @Nullable LegacyState legacy;
  private volatile boolean closed;

  SessionImpl(McpServer server, Outbound sessionOutbound) {
    this.server = server;
    this.sessionOutbound = sessionOutbound;
    this.dispatcher = new Dispatcher(server, this);
  }

  @Override
  public @Nullable Response handle(Request request, Outbound stream) {
    return accept(request).run(stream);
  }

  @Override
  public Accepted accept(Request request) {
    InFlight task = new InFlight();
    if (inFlight.putIfAbsent(request.id(), task) != null) {
      ErrorResponse duplicate = new ErrorResponse(
          request.id(), ErrorCodes.INVALID_REQUEST, "Invalid request: id " + request.id() + " is already in flight", null);
      return new Accepted() {
        @Override
        public @Nullable Response run(Outbound stream) {
          return duplicate;
        }

        @Override
        public boolean mayBlock() {
          return false;
        }
      };
    }
    boolean mayBlock = dispatcher.mayBlock(request);
    return new Accepted() {
      @Override
      public @Nullable Response run(Outbound stream) {
        return SessionImpl.this.run(request, task, stream);
      }

      @Override
      public boolean mayBlock() {
        return mayBlock;
      }
    };
  }

  private @Nullable Response run(Request request, InFlight task, Outbound stream) {
    if (!task.start(Thread.currentThread())) {
      inFlight.remove(request.id(), task);
      return null; // cancelled before it started
    }
    try {
      Response response = respond(request, stream);
      return task.finish() ? null : response;
    } finally {
      inFlight.remove(request.id(), task);
      if (task.finish()) {
        Thread.interrupted(); // the interrupt was for this request only
      }
    }
  }

  private Response respond(Request request, Outbound stream) {
    try {
      return new ResultResponse(request.id(), dispatcher.dispatch(request, stream));
    } catch (McpException e) {
      return ErrorResponse.of(request.id(), e);
    } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
      // Errors that application code (a completer, a renderer) can cause still get an answer; a dying VM does not.
      LOG.log(Level.ERROR, "request " + request.id() + " (" + request.method() + ") failed", e);
      return new ErrorResponse(request.id(), ErrorCodes.INTERNAL_ERROR, "Internal error while serving " + request.method(), null);
    }
  }

  @Override
  public void handle(Notification notification) {
    switch (notification.method()) {
      case "notifications/initialized" -> {
        // Nothing waits for it: a session hears of changes from its initialize response on.
      }
      case "notifications/cancelled" -> {
        JsonObject params = notification.paramsOrEmpty();
        if (params.get("requestId") instanceof JsonString || (params.get("requestId") instanceof JsonNumber n && n.isLong())) {
          cancel(new RequestId(params.get("requestId")));
        }
      }
      default -> LOG.log(Level.DEBUG, "ignoring notification {0}", notification.method());
    }
  }

  @Override
  public BatchReply handle(Incoming.Batch batch, Outbound stream) {
    LegacyState state = legacy;
    if (state == null || !state.version.allowsBatches()) {
      String why = state == null
          ? "Invalid request: batches are not allowed before initialize (and initialize must not be batched)"
          : "Invalid request: JSON-RPC batches are not allowed in protocol version " + state.version.id()
              + " (only 2025-03-26 allows them)";
      return new BatchReply(List.of(), new ErrorResponse(null, ErrorCodes.INVALID_REQUEST, why, null));
    }
    List<Response> responses = new ArrayList<>();
    for (Incoming item : batch.items()) {
      switch (item) {
        case Incoming.Single(Request r) when r.method().equals("initialize") ->
            responses.add(ErrorResponse.of(r.id(), McpException.invalidRequest("Invalid request: initialize must not be part of a batch")));
        case Incoming.Single(Request r) -> {
          Response response = handle(r, stream);
          if (response != null) {
            responses.add(response);
          }
        }
        case Incoming.Single(Notification n) -> handle(n);
        case Incoming.Single s -> LOG.log(Level.DEBUG, "ignoring a response inside a batch");
        case Incoming.Invalid invalid when invalid.answerable() -> responses.add(invalid.error());
        case Incoming.Invalid invalid -> LOG.log(Level.DEBUG, "ignoring invalid notification: {0}", invalid.error().message());
        case Incoming.Batch nested ->
            responses.add(new ErrorResponse(null, ErrorCodes.INVALID_REQUEST, "Invalid request: nested batch", null));
      }
    }
    return new BatchReply(responses, null);
  }

  @Override
  public void cancel(RequestId id) {
    InFlight task = inFlight.get(id);
    if (task != null) {
      task.cancel();
    }
  }

  @Override
  public Optional<ProtocolVersion> negotiatedVersion() {
    LegacyState state = legacy;
    return state == null ? Optional.empty() : Optional.of(state.version);
  }

  @Override
  public void close() {
    closed = true;
    server.broadcaster().removeSession(this);
    dispatcher.closeSubscriptions();
  }

  boolean isClosed() {
    return closed;
  }

  @Nullable LegacyState legacy() {
    return legacy;
  }

  /**
   * Records a completed {@code initialize}; from now on the session hears of catalog changes. Returns false, changing
   * nothing, when another {@code initialize} got there first.
   */
  boolean initialized(LegacyState state) {
    if (!LEGACY.compareAndSet(this, null, state)) {
      return false;
    }
    if (!closed) {
      server.broadcaster().addSession(this);
    }
    return true;
  }

  void notifyClient(Notification notification) {
    if (!closed) {
      sessionOutbound.send(notification);
    }
  }

  /**
   * One request from acceptance to response. Cancelling, starting and finishing exclude each other, so that a
   * cancellation that overtakes the request stops it from starting, and one arriving as it finishes cannot interrupt
   * whatever its thread does next.
   */
  private static final class InFlight {
    private @Nullable Thread thread;
    private boolean cancelled;
    private boolean finished;

    /** Binds the request to the thread about to run it; false when it was cancelled before it started. */
    synchronized boolean start(Thread runner) {
      if (cancelled) {
        return false;
      }
      thread = runner;
      return true;
    }

    synchronized void cancel() {
      if (!finished) {
        cancelled = true;
        Thread running = thread;
        if (running != null) {
          running.interrupt();
        }
      }
    }

    /** Marks the request finished; returns whether it was cancelled first. */
    synchronized boolean finish() {
      finished = true;
      thread = null;
      return cancelled;
    }
  }
}
