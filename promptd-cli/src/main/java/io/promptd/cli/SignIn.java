package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * How people sign in to an HTTP server that takes OAuth instead of a shared token, as
 * {@code promptd clients} prints each client's configuration for it: the identity provider the
 * server names (when it was asked), and the public client to use when the provider does not let
 * clients register themselves, with the loopback port of the clients' callbacks.
 *
 * @param issuer the authorization server the server's protected-resource metadata names, or null
 *     when {@code --oauth} said so without asking the server
 * @param clientId a pre-registered public client's id, or null when each client registers itself
 *     (dynamic client registration)
 * @param callbackPort the port of the callback on {@code localhost} for the clients that take one
 */
record SignIn(@Nullable String issuer, @Nullable String clientId, int callbackPort) {
  /** The callback port when {@code --client-id} is given without {@code --callback-port}. */
  static final int DEFAULT_CALLBACK_PORT = 8976;

  /** Qwen Code 0.24 listens for its callback on this port only, whatever the redirect URI says. */
  static final int QWEN_CALLBACK_PORT = 7777;

  private static final int MAX_METADATA = 64 * 1024;

  boolean registers() {
    return clientId == null;
  }

  /**
   * The redirect URIs a pre-registered client must allow, one per client that uses them, as a line
   * for the header of {@code promptd clients}.
   */
  String redirectUris() {
    return "http://localhost:" + callbackPort + "/callback (Claude Code), http://localhost:"
        + callbackPort + "/oauth/callback (Gemini CLI), http://localhost:" + QWEN_CALLBACK_PORT
        + "/oauth/callback (Qwen Code), http://127.0.0.1:" + callbackPort
        + "/mcp/oauth/callback (opencode), cursor://anysphere.cursor-mcp/oauth/callback (Cursor)";
  }

  /**
   * Asks the server at {@code mcp} for its protected-resource metadata (RFC 9728: the path-inserted
   * well-known URL, then the root one) and returns the first authorization server it names; empty
   * when the server is not reachable, answers anything but such a document, or names none (a server
   * with a shared token, or none, publishes no such document).
   */
  static Optional<String> issuerOf(URI mcp, Duration timeout) {
    // One deadline for the whole: a name that does not resolve waits on the resolver, which the
    // connection's own timeouts do not bound.
    CompletableFuture<Optional<String>> issuer = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("promptd-clients-probe")
        .start(() -> issuer.complete(ask(mcp, timeout)));
    try {
      return issuer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static Optional<String> ask(URI mcp, Duration timeout) {
    String path = mcp.getRawPath() == null || mcp.getRawPath().equals("/") ? "" : mcp.getRawPath();
    for (String suffix : path.isEmpty() ? new String[] {""} : new String[] {path, ""}) {
      URI metadata = mcp.resolve("/.well-known/oauth-protected-resource" + suffix);
      Optional<String> issuer = firstAuthorizationServer(metadata, timeout);
      if (issuer.isPresent()) {
        return issuer;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> firstAuthorizationServer(URI metadata, Duration timeout) {
    try {
      HttpURLConnection c = (HttpURLConnection) metadata.toURL().openConnection();
      int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      c.setConnectTimeout(millis);
      c.setReadTimeout(millis);
      c.setInstanceFollowRedirects(false);
      c.setUseCaches(false);
      c.setRequestProperty("Accept", "application/json");
      try {
        if (c.getResponseCode() != 200) {
          return Optional.empty();
        }
        byte[] body;
        try (InputStream in = c.getInputStream()) {
          body = in.readNBytes(MAX_METADATA);
        }
        if (!(JsonCodec.parse(new String(body, StandardCharsets.UTF_8)) instanceof JsonObject o)
            || !(o.members().get("authorization_servers") instanceof JsonArray servers)) {
          return Optional.empty();
        }
        for (Json server : servers.elements()) {
          if (server instanceof JsonString s && !s.value().isBlank()) {
            return Optional.of(s.value());
          }
        }
        return Optional.empty();
      } finally {
        c.disconnect();
      }
    } catch (IOException | RuntimeException e) {
      // Unreachable, not JSON, cut short: not a server that names an identity provider.
      return Optional.empty();
    }
  }
}
