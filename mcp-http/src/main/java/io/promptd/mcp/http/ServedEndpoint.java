package io.promptd.mcp.http;

import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.exchange.StreamLimit;
import io.promptd.mcp.http.internal.mcp.LegacyEndpoint;
import io.promptd.mcp.http.internal.mcp.McpEndpoint;
import io.promptd.mcp.http.internal.mcp.ModernEndpoint;
import io.promptd.mcp.http.internal.session.SessionRegistry;
import io.promptd.mcp.http.internal.session.SessionTokens;
import io.promptd.mcp.http.internal.session.SharedSessions;
import io.promptd.mcp.server.McpServer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * One MCP endpoint of the transport's port and what it holds on its own: its legacy sessions (in
 * memory, and in the shared store under a secret of its own), its modern endpoint with its listen
 * streams, and its route. The transport's main endpoint is one; each
 * {@link io.promptd.mcp.http.HttpTransportBuilder#endpoint further endpoint} is another, so a
 * session opened on one path is unknown on every other.
 */
final class ServedEndpoint {
  final String path;
  final SessionRegistry sessions;
  final @Nullable SharedSessions shared;
  final ModernEndpoint modern;
  final McpEndpoint route;

  /**
   * Under the configured session secret, a further endpoint's ids are signed with a key derived
   * from it and the path, so that they verify on that path only.
   *
   * @param main whether this is the transport's own endpoint (whose ids are signed with the secret
   *     itself, as before)
   */
  ServedEndpoint(
      HttpConfig b,
      String path,
      McpServer server,
      @Nullable LongSupplier catalogVersion,
      boolean main,
      Gate gate,
      StreamLimit streams) {
    this.path = path;
    this.sessions = new SessionRegistry(
        b.sessionIdleTimeout(),
        b.limits().maxSessions(),
        b.limits().maxSessionsPerCaller(),
        b.sessionClock());
    this.modern =
        new ModernEndpoint(server, b.keepAliveInterval(), b.streamAfter(), b.streamLimits());
    byte[] secret = b.sessionSecret();
    SessionStore store = b.sessionStore();
    this.shared = secret == null
        ? null
        : new SharedSessions(
            server,
            sessions,
            new SessionTokens(main ? secret : derive(secret, path)),
            store == null ? SessionStore.inMemory() : store,
            store != null,
            b.sessionIdleTimeout(),
            b.sessionMaxAge(),
            b.streamLimits(),
            catalogVersion == null ? server.prompts()::version : catalogVersion);
    LegacyEndpoint legacy =
        new LegacyEndpoint(server, sessions, b.keepAliveInterval(), b.streamLimits(), shared);
    this.route = new McpEndpoint(server, gate, b.limits().maxBodyBytes(), legacy, modern, streams);
  }

  /** HMAC-SHA256 of the path under the secret: the key of a further endpoint's session ids. */
  private static byte[] derive(byte[] secret, String path) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(("promptd endpoint " + path).getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is in every JDK", e);
    }
  }

  /** Ends its legacy sessions (first closing its hold on the shared store). */
  void closeSessions() {
    if (shared != null) {
      shared.close();
    }
    sessions.closeAll();
  }
}
