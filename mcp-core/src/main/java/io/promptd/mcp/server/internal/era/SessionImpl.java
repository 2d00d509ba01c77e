package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.PromptSplit;
import io.promptd.mcp.server.internal.method.Capabilities;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.notify.ListenScope;
import io.promptd.mcp.server.internal.notify.ResourceSubscriptions;
import io.promptd.mcp.server.internal.notify.SessionChannel;
import io.promptd.mcp.server.internal.state.CallSession;
import io.promptd.mcp.server.internal.state.CompletionLimiter;
import io.promptd.mcp.server.internal.state.FormElicitation;
import io.promptd.mcp.server.internal.state.LegacyState;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.LegacySessionState;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ServerSession}: legacy session state, in-flight requests for cancellation, and what
 * every kind of input (request, notification, batch, invalid input) is answered with.
 */
public final class SessionImpl implements ServerSession, SessionChannel, CallSession {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");
  private static final VarHandle LEGACY;

  static {
    try {
      LEGACY = MethodHandles.lookup().findVarHandle(SessionImpl.class, "legacy", LegacyState.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ServerContext context;
  private final MethodTable methods;
  private final Outbound sessionOutbound;
  private final LegacyEra legacyEra;
  private final ResourceSubscriptions resourceSubscriptions;
  private final ListenScope listens = new ListenScope();
  /** This session's completion rate-limit bucket: legacy clients are limited per session. */
  private final String clientKey = CompletionLimiter.sessionKey();
  /**
   * Who this session's caller is for {@link PromptSplit}s when its token names no subject; the
   * transport names it. Until then 128 random bits: not from {@code UUID.randomUUID()}, whose
   * {@code SecureRandom} loaded the JDK's security providers at every start (a split needs keys
   * that differ, not secrets).
   */
  private volatile String audience = "session:"
      + Long.toHexString(ThreadLocalRandom.current().nextLong())
      + Long.toHexString(ThreadLocalRandom.current().nextLong());

  private final Map<RequestId, InFlight> inFlight = new ConcurrentHashMap<>();
  /** The server's own requests to the client (elicitation) that wait for the client's response. */
  private final Map<RequestId, CompletableFuture<Response>> awaiting = new ConcurrentHashMap<>();

  private final AtomicLong requests = new AtomicLong();
  private volatile @Nullable LegacyState legacy;
  private volatile boolean closed;
  /** Who sent the latest request: the session's notifications are for what it may see. */
  private volatile Caller caller = Caller.UNRESTRICTED;

  public SessionImpl(
      ServerContext context,
      MethodTable methods,
      Capabilities capabilities,
      Outbound sessionOutbound) {
    this.context = context;
    this.methods = methods;
    this.sessionOutbound = sessionOutbound;
    this.legacyEra = new LegacyEra(context, methods, capabilities, this);
    this.resourceSubscriptions =
        new ResourceSubscriptions(context.resourceEvents, context.resources, this);
  }

  @Override
  public Call receive(Incoming input) {
    return receive(input, Caller.UNRESTRICTED);
  }

  @Override
  public Call receive(Incoming input, Caller caller) {
    return switch (input) {
      case Incoming.Single(Request r) -> accept(r, caller);
      case Incoming.Single(Notification n) -> {
        handle(n);
        yield Call.done(Reply.accepted());
      }
      case Incoming.Single(Response r) -> {
        answered(r);
        yield Call.done(Reply.accepted());
      }
      case Incoming.Invalid invalid ->
        Call.done(Reply.rejected(invalid.error(), invalid.answerable(), version()));
      case Incoming.Batch batch ->
        new Call() {
          @Override
          public boolean mayBlock() {
            return true;
          }

          @Override
          public Reply run(Outbound stream) {
            return batch(batch, stream, caller);
          }

          @Override
          public void cancel() {
            // each request in it can be cancelled by its own id
          }
        };
    };
  }

  @Override
  public ServerContext context() {
    return context;
  }

  /** The resources this session subscribed to. */
  @Override
  public ResourceSubscriptions resourceSubscriptions() {
    return resourceSubscriptions;
  }

  /**
   * Whether the server may ask this session's client for prompt arguments with
   * {@code elicitation/create}: a legacy session of 2025-06-18 or later whose client declared form
   * elicitation, with elicitation on in the server — and, for a given request, a {@code stream}
   * that carries the server's requests ({@link Outbound#carriesRequests()}: stdio, or an HTTP POST
   * answered as an event stream), whose answers come back through this session.
   */
  @Override
  public boolean mayElicit() {
    LegacyState state = legacy;
    return state != null
        && state.version.atLeast(ProtocolVersion.V2025_06_18)
        && context.elicits
        && FormElicitation.supported(state.clientCapabilities);
  }

  /** {@link #mayElicit()} over {@code stream}. */
  @Override
  public boolean canElicit(Outbound stream) {
    return stream.carriesRequests() && mayElicit();
  }

  /**
   * Sends a request of the server's own to the client on {@code stream} and waits for its response,
   * which arrives through this session, at most {@code timeout}.
   *
   * @return the response, or null when none came in time
   * @throws InterruptedException when the request that needs the answer is cancelled
   */
  @Override
  public @Nullable Response request(
      String method, JsonObject params, Duration timeout, Outbound stream)
      throws InterruptedException {
    RequestId id = RequestId.of("promptd-" + requests.incrementAndGet());
    CompletableFuture<Response> answer = new CompletableFuture<>();
    awaiting.put(id, answer);
    try {
      stream.send(new Request(id, method, params));
      return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return null;
    } finally {
      awaiting.remove(id);
    }
  }

  /**
   * A response from the client: to a request the server is waiting on, or ignored with a log line.
   */
  private void answered(Response response) {
    RequestId id = response.id();
    CompletableFuture<Response> waiting = id == null ? null : awaiting.remove(id);
    if (waiting != null) {
      waiting.complete(response);
    } else {
      // The id is the client's text: not logged.
      LOG.log(
          Level.INFO,
          "ignored a response from the client to a request this server did not send or no longer"
              + " waits for");
    }
  }

  @Override
  public @Nullable Response handle(Request request, Outbound stream) {
    return accept(request, Caller.UNRESTRICTED).run(stream).response();
  }

  private Call accept(Request request, Caller caller) {
    this.caller = caller;
    InFlight task = new InFlight();
    if (inFlight.putIfAbsent(request.id(), task) != null) {
      ErrorResponse duplicate = new ErrorResponse(
          request.id(),
          ErrorCodes.INVALID_REQUEST,
          "Invalid request: id " + request.id() + " is already in flight",
          null);
      return Call.done(Reply.of(duplicate, Reply.Hint.ANSWERED, version()));
    }
    boolean mayBlock = methods.mayBlock(request, caller, this::mayElicit);
    return Responder.call(task, mayBlock, stream -> {
      try {
        Response response =
            Responder.run(request, task, r -> legacyEra.dispatch(r, stream, caller));
        return response == null
            ? Reply.cancelled()
            : Reply.of(response, Reply.Hint.ANSWERED, version());
      } finally {
        inFlight.remove(request.id(), task);
      }
    });
  }

  @Override
  public void handle(Notification notification) {
    switch (notification.method()) {
      case Methods.NOTIFICATION_INITIALIZED -> {
        // Nothing waits for it: a session hears of changes from its initialize response on.
      }
      case Methods.NOTIFICATION_CANCELLED -> {
        JsonObject params = notification.paramsOrEmpty();
        if (params.get("requestId") instanceof JsonString
            || (params.get("requestId") instanceof JsonNumber n && n.isLong())) {
          cancel(new RequestId(params.get("requestId")));
        }
      }
      default -> LOG.log(Level.DEBUG, "ignoring notification {0}", notification.method());
    }
  }

  /**
   * Serves a batch: allowed only in a session that negotiated 2025-03-26 and of at most the
   * server's number of messages, else one -32600 error; requests past the bound on its answer's
   * bytes are not run ({@link BatchAnswer}).
   */
  private Reply batch(Incoming.Batch batch, Outbound stream, Caller caller) {
    LegacyState state = legacy;
    if (state == null || !state.version.allowsBatches()) {
      String why = state == null
          ? "Invalid request: batches are not allowed before initialize (and initialize must not be batched)"
          : "Invalid request: JSON-RPC batches are not allowed in protocol version "
              + state.version.id() + " (only 2025-03-26 allows them)";
      return Reply.rejected(
          new ErrorResponse(null, ErrorCodes.INVALID_REQUEST, why, null), true, version());
    }
    int size = batch.items().size();
    if (size > context.maxBatchMessages) {
      String why = "Invalid request: a batch may hold at most " + context.maxBatchMessages
          + " messages, this one holds " + size;
      return Reply.rejected(
          new ErrorResponse(null, ErrorCodes.INVALID_REQUEST, why, null), true, version());
    }
    BatchAnswer responses = new BatchAnswer(context.maxBatchAnswerBytes, state.version);
    for (Incoming item : batch.items()) {
      switch (item) {
        case Incoming.Single(Request r)
        when r.method().equals(Methods.INITIALIZE) ->
          responses.add(ErrorResponse.of(
              r.id(),
              McpException.invalidRequest(
                  "Invalid request: initialize must not be part of a batch")));
        case Incoming.Single(Request r)
        when responses.full() -> responses.add(responses.notRun(r.id()));
        case Incoming.Single(Request r) -> {
          Response response = accept(r, caller).run(stream).response();
          if (response != null) {
            responses.add(response);
          }
        }
        case Incoming.Single(Notification n) -> handle(n);
        case Incoming.Single s -> LOG.log(Level.DEBUG, "ignoring a response inside a batch");
        case Incoming.Invalid invalid when invalid.answerable() -> responses.add(invalid.error());
        case Incoming.Invalid invalid ->
          LOG.log(
              Level.DEBUG, "ignoring invalid notification: {0}", invalid.error().message());
        case Incoming.Batch nested ->
          responses.add(new ErrorResponse(
              null, ErrorCodes.INVALID_REQUEST, "Invalid request: nested batch", null));
      }
    }
    return responses.reply();
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
    return Optional.ofNullable(version());
  }

  @Override
  public Optional<LegacySessionState> legacyState() {
    LegacyState state = legacy;
    return state == null
        ? Optional.empty()
        : Optional.of(new LegacySessionState(
            state.version,
            state.clientCapabilities,
            state.clientInfo,
            state.logLevel,
            resourceSubscriptions.uris()));
  }

  @Override
  public void restore(LegacySessionState state, Caller caller) {
    this.caller = caller;
    LegacyState current = legacy;
    if (current == null) {
      LegacyState fresh =
          new LegacyState(state.version(), state.clientCapabilities(), state.clientInfo());
      current = initialized(fresh) ? fresh : requireLegacy();
    }
    current.logLevel = state.logLevel();
    resourceSubscriptions.replace(state.subscriptions(), caller);
  }

  private LegacyState requireLegacy() {
    LegacyState state = legacy;
    if (state == null) {
      throw new IllegalStateException(
          "SessionImpl: initialized by another thread, yet not initialized");
    }
    return state;
  }

  /** Who sent the session's latest request ({@link Caller#UNRESTRICTED} before any). */
  @Override
  public Caller caller() {
    return caller;
  }

  private @Nullable ProtocolVersion version() {
    LegacyState state = legacy;
    return state == null ? null : state.version;
  }

  @Override
  public void close() {
    closed = true;
    context.broadcaster.removeSession(this);
    resourceSubscriptions.close();
    listens.close();
  }

  @Override
  public void audience(String key) {
    audience = Objects.requireNonNull(key, "key");
  }

  String audience() {
    return audience;
  }

  String clientKey() {
    return clientKey;
  }

  ListenScope listens() {
    return listens;
  }

  @Override
  public @Nullable LegacyState legacy() {
    return legacy;
  }

  /**
   * Records a completed {@code initialize}; from now on the session hears of catalog changes.
   * Returns false, changing nothing, when another {@code initialize} got there first.
   */
  boolean initialized(LegacyState state) {
    if (!LEGACY.compareAndSet(this, null, state)) {
      return false;
    }
    if (!closed) {
      context.broadcaster.addSession(this);
    }
    return true;
  }

  @Override
  public boolean admits(LoggingLevel level) {
    LegacyState state = legacy;
    return state != null && level.compareTo(state.logLevel) >= 0;
  }

  @Override
  public void notifyClient(Notification notification) {
    if (!closed) {
      sessionOutbound.send(notification);
    }
  }
}
