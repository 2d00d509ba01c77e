package io.promptd.mcp.http;

import io.promptd.mcp.http.internal.auth.TrustedProxies;
import io.promptd.mcp.http.internal.jetty.JettyHandler;
import io.promptd.mcp.http.internal.route.Mounts;
import io.promptd.mcp.http.internal.session.SessionClock;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.StreamQueue;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link HttpTransportBuilder} was told so far, each argument checked as it was set;
 * {@link #config()} takes the {@link HttpConfig} a transport is built from.
 */
final class HttpSettings {
  @Nullable
  McpServer server;

  String host = "127.0.0.1";
  int port = 0;
  String path = "/mcp";
  final List<String> allowedOrigins = new ArrayList<>();
  final List<String> allowedHosts = new ArrayList<>();
  final List<URI> publicUrls = new ArrayList<>();

  @Nullable
  TrustedProxies trustedProxies;

  @Nullable
  Path tlsCert;

  @Nullable
  Path tlsKey;

  Duration tlsReloadInterval = Duration.ofSeconds(5);

  @Nullable
  String bearerToken;

  @Nullable
  OAuthSettings oauth;

  Duration keyRefreshInterval = Duration.ofSeconds(15);
  HttpLimits limits = HttpLimits.DEFAULTS;
  Duration sessionIdleTimeout = Duration.ofMinutes(30);
  SessionClock sessionClock = SessionClock.SYSTEM;
  Duration sessionMaxAge = HttpTransportBuilder.DEFAULT_SESSION_MAX_AGE;
  byte @Nullable [] sessionSecret;

  @Nullable
  SessionStore sessionStore;

  @Nullable
  LongSupplier catalogVersion;

  Duration keepAliveInterval = Duration.ofSeconds(15);
  Duration streamAfter = Duration.ofSeconds(1);
  Duration shutdownTimeout = Duration.ofSeconds(10);
  StreamQueue.Limits streamLimits = StreamQueue.Limits.DEFAULT;
  int acceptedSendBufferSize = -1;
  final List<Consumer<RequestEvent>> requestListeners = new ArrayList<>();
  final Map<String, BooleanSupplier> readinessChecks = new LinkedHashMap<>();
  JettyHandler.@Nullable Hold hold;
  final Mounts mounts = new Mounts("mount", true);
  final List<HttpConfig.Further> endpoints = new ArrayList<>();

  @Nullable
  String adminHost;

  int adminPort;
  final Mounts adminMounts = new Mounts("adminMount", false);

  /**
   * The settings as they are now, checked as a whole.
   *
   * @throws IllegalStateException as {@link HttpTransportBuilder#build()} documents
   */
  HttpConfig config() {
    McpServer s = server;
    if (s == null) {
      throw new IllegalStateException("HttpTransportBuilder.build: server(...) is required");
    }
    return new HttpConfig(
        s,
        host,
        port,
        path,
        List.copyOf(allowedOrigins),
        List.copyOf(allowedHosts),
        List.copyOf(publicUrls),
        trustedProxies,
        tlsCert,
        tlsKey,
        tlsReloadInterval,
        bearerToken,
        oauth,
        keyRefreshInterval,
        limits,
        sessionIdleTimeout,
        sessionClock,
        sessionMaxAge,
        sessionSecret,
        sessionStore,
        catalogVersion,
        keepAliveInterval,
        streamAfter,
        shutdownTimeout,
        streamLimits,
        acceptedSendBufferSize,
        List.copyOf(requestListeners),
        Collections.unmodifiableMap(new LinkedHashMap<>(readinessChecks)),
        hold,
        mounts.byPath(),
        List.copyOf(endpoints),
        adminHost,
        adminPort,
        adminMounts.byPath());
  }
}
