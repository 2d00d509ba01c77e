package io.promptd.mcp.server;

import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One channel between a client and the server, driven by a transport: a stdio process, or an HTTP session. A legacy
 * client's {@code initialize} scopes its state to the session; modern requests are served statelessly through any
 * session. Thread-safe: transports call {@link #handle} concurrently, one thread per request.
 */
public interface ServerSession extends AutoCloseable {
  /**
   * Serves one request on the calling thread, blocking until it is done.
   *
   * @param request the request
   * @param stream where notifications tied to this request go (a {@code subscriptions/listen} stream)
   * @return the response, or null when the request was cancelled and must not be answered
   */
  @Nullable Response handle(Request request, Outbound stream);

  /**
   * Registers a request as in flight without running it yet, so that a {@code notifications/cancelled} that overtakes
   * it (read by the transport before a worker thread picks the request up) still cancels it. Transports that read
   * messages in order and run requests on other threads call this on the reading thread, then {@link
   * Accepted#run(Outbound)} on the worker.
   */
  Accepted accept(Request request);

  /** Acts on a notification from the client: {@code initialized}, {@code cancelled}, .... Never blocks for long. */
  void handle(Notification notification);

  /**
   * Serves a JSON-RPC batch. Batches are allowed only in a session that negotiated 2025-03-26; otherwise the answer is
   * a single -32600 error.
   *
   * @return the responses to send as one JSON array (empty: send nothing), or one error to send alone
   */
  BatchReply handle(Incoming.Batch batch, Outbound stream);

  /** Cancels an in-flight request: its work is interrupted and its response suppressed. */
  void cancel(RequestId id);

  /** The legacy version this session negotiated with {@code initialize}, if it did. */
  Optional<ProtocolVersion> negotiatedVersion();

  /**
   * Ends the session: open {@code subscriptions/listen} streams end gracefully with their final response, and no
   * further notifications are sent.
   */
  @Override
  void close();

  /** A request registered by {@link #accept(Request)}, to be run exactly once. */
  interface Accepted {
    /** Serves the request on the calling thread; see {@link ServerSession#handle(Request, Outbound)}. */
    @Nullable Response run(Outbound stream);

    /**
     * Whether serving the request may block. A transport may run a request that cannot block on the thread that
     * reads messages; one that may block (a renderer doing I/O, a {@code subscriptions/listen}) must run elsewhere so
     * that reading, and with it cancellation, goes on.
     */
    boolean mayBlock();
  }

  /**
   * The answer to a batch.
   *
   * @param responses responses to send together as a JSON array; empty when there is nothing to send
   * @param rejection an error to send alone instead, or null
   */
  record BatchReply(List<Response> responses, @Nullable Response rejection) {
    /** Copies the responses. */
    public BatchReply {
      responses = List.copyOf(responses);
    }
  }
}
