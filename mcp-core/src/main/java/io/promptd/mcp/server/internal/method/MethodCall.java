package io.promptd.mcp.server.internal.method;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.PromptSplit;
import io.promptd.mcp.server.internal.notify.ListenScope;
import io.promptd.mcp.server.internal.state.CallSession;
import io.promptd.mcp.server.internal.state.RequestContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.wire.Encoder;
import org.jspecify.annotations.Nullable;

/**
 * One request as a {@link MethodTable} handler sees it, in either era.
 *
 * @param request the request
 * @param context what the server knows of it: version, client, caller (from the session's
 *     {@code initialize} or the request's own {@code _meta})
 * @param rules what the features ask of the request's era
 * @param stream where the request's own messages go (its response stream)
 * @param session the legacy session the request arrived in, or null for a stateless request
 * @param listens where {@code subscriptions/listen} streams of this channel are kept
 * @param clientKey whose {@code completion/complete} rate limit the request counts against
 * @param channel who the channel's caller is when its token names no subject: {@code session:ID}
 *     for a legacy session, {@code address:IP} for a stateless HTTP request, {@code local:USER} for
 *     stdio (see {@link #audience})
 */
public record MethodCall(
    Request request,
    RequestContext context,
    EraRules rules,
    Outbound stream,
    @Nullable CallSession session,
    ListenScope listens,
    String clientKey,
    String channel) {
  /** Checks the fields. */
  public MethodCall {
    requireNonNull(request, "request");
    requireNonNull(context, "context");
    requireNonNull(rules, "rules");
    requireNonNull(stream, "stream");
    requireNonNull(listens, "listens");
    requireNonNull(clientKey, "clientKey");
    requireNonNull(channel, "channel");
  }

  /**
   * The name a {@link PromptSplit} chooses by: the access token's subject under authorization, else
   * the channel's caller (legacy session, address, local user).
   */
  public String audience() {
    Caller c = caller();
    String subject = c.subject();
    return !c.unrestricted() && subject != null ? "subject:" + subject : channel;
  }

  public JsonObject params() {
    return request.params();
  }

  public Caller caller() {
    return context.caller();
  }

  public ProtocolVersion version() {
    return context.version();
  }

  /** Whether the request is served under the stateless era (2026-07-28). */
  public boolean modern() {
    return context.modern();
  }

  public Encoder encoder() {
    return new Encoder(context.version());
  }

  /** The legacy session a legacy-only method runs in. */
  public CallSession legacySession() {
    CallSession s = session;
    if (s == null || s.legacy() == null) {
      throw McpException.methodNotFound(request.method());
    }
    return s;
  }

  /**
   * The {@code cacheScope} of a modern listing: "public" when every caller sees the same one,
   * "private" when authorization is in force, since the listing then depends on the scopes the
   * caller holds (2026-07-28, caching: a "public" result may be shared between access tokens).
   */
  public String cacheScope() {
    return caller().unrestricted() ? "public" : "private";
  }
}
