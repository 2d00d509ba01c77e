package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One channel between a client and the server, driven by a transport: a stdio process, or an HTTP
 * session. A legacy client's {@code initialize} scopes its state to the session; modern requests
 * are served statelessly through any session. Thread-safe: transports call {@link #receive} and run
 * calls concurrently, one thread per request.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public interface ServerSession extends AutoCloseable {
  /**
   * Takes one decoded unit of input — a message, a batch, or invalid input — and returns the call
   * that answers it. Notifications are acted on here, at once (a {@code notifications/cancelled}
   * before later input is read); a request is registered as in flight, so that a cancellation read
   * right after it finds it. Transports run the call on the reading thread unless it
   * {@linkplain Call#mayBlock() may block}, and write its {@link io.promptd.mcp.spi.Reply}.
   */
  Call receive(Incoming input);

  /**
   * Takes one unit of input like {@link #receive(Incoming)}, sent by {@code caller}: what it may
   * see is limited to what the caller may see. The transport authenticates;
   * {@link Caller#UNRESTRICTED} when no authorization is in force.
   */
  Call receive(Incoming input, Caller caller);

  /**
   * Serves one request on the calling thread, blocking until it is done;
   * {@code receive(...).run(stream)} for one request.
   *
   * @param request the request
   * @param stream where notifications tied to this request go (a {@code subscriptions/listen}
   *     stream)
   * @return the response, or null when the request was cancelled and must not be answered
   */
  @Nullable
  Response handle(Request request, Outbound stream);

  /**
   * Acts on a notification from the client: {@code initialized}, {@code cancelled}, .... Never
   * blocks for long.
   */
  void handle(Notification notification);

  /** Cancels an in-flight request: its work is interrupted and its response suppressed. */
  void cancel(RequestId id);

  /** The legacy version this session negotiated with {@code initialize}, if it did. */
  Optional<ProtocolVersion> negotiatedVersion();

  /**
   * What this legacy session holds now (see {@link LegacySessionState}), or empty before
   * {@code initialize}.
   */
  Optional<LegacySessionState> legacyState();

  /**
   * Makes this session hold {@code state}, as if its client had initialized it (when it has not)
   * and then set its log level and subscriptions: for a transport that serves one session from
   * several processes. The subscriptions are {@code caller}'s: updates go only to resources it may
   * see.
   */
  void restore(LegacySessionState state, Caller caller);

  /**
   * Names this channel's caller for per-caller choices (an A/B split's variant) when its token
   * names no subject: the same name for the same client wherever the session is served —
   * {@code session:ID} for an HTTP session, {@code local:USER} for stdio. Until called, a name of
   * the session's own, unknown elsewhere. The default ignores it.
   */
  default void audience(String key) {}

  /**
   * Ends the session: open {@code subscriptions/listen} streams end gracefully with their final
   * response, and no further notifications are sent.
   */
  @Override
  void close();
}
