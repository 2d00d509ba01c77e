package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.server.internal.notify.ResourceSubscriptions;
import io.promptd.mcp.spi.Outbound;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** The legacy session a request arrived in, as the features see it ({@code MethodCall.session}). */
public interface CallSession {
  /** What the session's {@code initialize} established, or null before it. */
  @Nullable
  LegacyState legacy();

  /**
   * Sends {@code notification} on the session's own channel (not a request's stream), unless the
   * session is closed.
   */
  void notifyClient(Notification notification);

  /** What the features of the session's server share. */
  ServerContext context();

  /** The resources this session subscribed to. */
  ResourceSubscriptions resourceSubscriptions();

  /**
   * Whether the server may ask this session's client for prompt arguments with
   * {@code elicitation/create}: a legacy session of 2025-06-18 or later whose client declared form
   * elicitation, with elicitation on in the server.
   */
  boolean mayElicit();

  /** {@link #mayElicit()} over {@code stream}, which must carry the server's requests. */
  boolean canElicit(Outbound stream);

  /**
   * Sends a request of the server's own to the client on {@code stream} and waits for its response,
   * which arrives through this session, at most {@code timeout}.
   *
   * @return the response, or null when none came in time
   * @throws InterruptedException when the request that needs the answer is cancelled
   */
  @Nullable
  Response request(String method, JsonObject params, Duration timeout, Outbound stream)
      throws InterruptedException;
}
