package io.promptd.mcp.http;

import io.promptd.mcp.http.internal.auth.Loopback;
import io.promptd.mcp.http.internal.auth.TrustedProxies;
import io.promptd.mcp.http.internal.jetty.JettyHandler;
import io.promptd.mcp.http.internal.jetty.TlsFiles;
import io.promptd.mcp.http.internal.session.SessionClock;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.StreamQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What a transport is built from: the builder's settings as they were at
 * {@link HttpTransportBuilder#build()}, checked as a whole (the builder checks each argument as it
 * is set). The transport's parts are made from this, never from the builder.
 *
 * @param server the main endpoint's MCP server
 * @param tlsCert the PEM certificate chain, or null for plain HTTP
 * @param tlsKey the PEM private key, or null for plain HTTP
 * @param sessionSecret the key legacy session ids are signed with, or null for random ids (not
 *     copied: the builder copied it when it was set)
 * @param hold the start's hold of requests, or null for none
 * @param mounts the MCP port's mounts by path, in the order they were added
 * @param endpoints the further MCP endpoints, in the order they were added
 * @param adminHost the admin listener's address, or null without one
 * @param adminMounts the admin listener's mounts by path, in the order they were added
 */
// The secret stays inside the transport: no one outside it sees the array.
@SuppressWarnings("ArrayRecordComponent")
record HttpConfig(
    McpServer server,
    String host,
    int port,
    String path,
    List<String> allowedOrigins,
    List<String> allowedHosts,
    List<URI> publicUrls,
    @Nullable TrustedProxies trustedProxies,
    @Nullable Path tlsCert,
    @Nullable Path tlsKey,
    Duration tlsReloadInterval,
    @Nullable String bearerToken,
    @Nullable OAuthSettings oauth,
    Duration keyRefreshInterval,
    HttpLimits limits,
    Duration sessionIdleTimeout,
    SessionClock sessionClock,
    Duration sessionMaxAge,
    byte @Nullable [] sessionSecret,
    @Nullable SessionStore sessionStore,
    @Nullable LongSupplier catalogVersion,
    Duration keepAliveInterval,
    Duration streamAfter,
    Duration shutdownTimeout,
    StreamQueue.Limits streamLimits,
    int acceptedSendBufferSize,
    List<Consumer<RequestEvent>> requestListeners,
    Map<String, BooleanSupplier> readinessChecks,
    JettyHandler.@Nullable Hold hold,
    Map<String, HttpMount> mounts,
    List<Further> endpoints,
    @Nullable String adminHost,
    int adminPort,
    Map<String, HttpMount> adminMounts) {

  /**
   * A further MCP endpoint: its path, its server and the version its event ids carry (null: the
   * server's).
   */
  record Further(String path, McpServer server, @Nullable LongSupplier catalogVersion) {}

  /**
   * Checks the settings as a whole.
   *
   * @throws IllegalStateException as {@link HttpTransportBuilder#build()} documents
   */
  HttpConfig {
    if (bearerToken != null && oauth != null) {
      throw new IllegalStateException(
          "HttpTransportBuilder.build: bearerToken(...) and oauth(...) exclude each"
              + " other; use one");
    }
    boolean authenticates = bearerToken != null || oauth != null;
    if (!authenticates && !Loopback.isLoopback(host)) {
      throw new IllegalStateException(
          "binding " + host + " would expose the server beyond this machine without"
              + " authentication; require a bearer token or OAuth, or bind a loopback address");
    }
    if (!authenticates && trustedProxies != null) {
      for (URI url : publicUrls) {
        if (!Loopback.isLoopbackName(url.getHost())) {
          throw new IllegalStateException("serving " + url + " through a trusted proxy would expose"
              + " the server beyond this machine without authentication; require a bearer token or"
              + " OAuth");
        }
      }
    }
    if (mounts.containsKey(path)) {
      throw new IllegalStateException("HttpTransportBuilder.build: a mount is served at " + path
          + "; the MCP path " + path + " would hide it");
    }
    for (Further e : endpoints) {
      if (e.path().equals(path) || mounts.containsKey(e.path())) {
        throw new IllegalStateException("HttpTransportBuilder.build: the endpoint " + e.path()
            + " is also " + (e.path().equals(path) ? "the main MCP path" : "a mount's path"));
      }
    }
    if (!adminMounts.isEmpty() && adminHost == null) {
      throw new IllegalStateException(
          "HttpTransportBuilder.build: adminMount(...) needs admin(...)");
    }
    if (sessionStore != null && sessionSecret == null) {
      throw new IllegalStateException(
          "HttpTransportBuilder.build: sessionStore(...) needs sessionSecret(...):"
              + " replicas must be able to check each other's session ids");
    }
  }

  /**
   * Reads the TLS files, when there are some.
   *
   * @return them, or null for plain HTTP
   * @throws UncheckedIOException when they cannot be read or do not form a pair
   */
  @Nullable
  TlsFiles openTls() {
    Path cert = tlsCert;
    Path key = tlsKey;
    if (cert == null || key == null) {
      return null;
    }
    try {
      return new TlsFiles(cert, key, tlsReloadInterval);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
