package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.http.internal.auth.TrustedProxies;
import io.promptd.mcp.http.internal.jetty.JettyHandler;
import io.promptd.mcp.http.internal.route.Mounts;
import io.promptd.mcp.http.internal.session.SessionClock;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.StreamQueue;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/** Configures an {@link HttpTransport}: {@link HttpTransport#builder()}. */
@Stability(Stability.Tier.STABLE)
public final class HttpTransportBuilder {
  /**
   * How long a legacy session under a session secret lives at most, by default: a working day and
   * then some.
   */
  public static final Duration DEFAULT_SESSION_MAX_AGE = Duration.ofHours(24);

  /** What was set so far. */
  private final HttpSettings state = new HttpSettings();

  HttpTransportBuilder() {}

  /**
   * How far an SSE stream may fall behind before it is closed (default 1,000 messages or 30 s); for
   * tests.
   */
  HttpTransportBuilder streamLimits(StreamQueue.Limits limits) {
    state.streamLimits = requireNonNull(limits, "streamLimits");
    return this;
  }

  /**
   * The socket send buffer of accepted connections, in bytes (default: the system's); for tests.
   */
  HttpTransportBuilder acceptedSendBufferSize(int bytes) {
    state.acceptedSendBufferSize = bytes;
    return this;
  }

  /** The MCP server to serve (required). The transport does not close it. */
  public HttpTransportBuilder server(McpServer server) {
    state.server = requireNonNull(server, "server");
    return this;
  }

  /**
   * The address to bind (default 127.0.0.1; anything else exposes the server beyond this machine).
   */
  public HttpTransportBuilder host(String host) {
    state.host = requireNonNull(host, "host");
    return this;
  }

  /** The port to bind; 0 (the default) picks a free one. */
  public HttpTransportBuilder port(int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.port: must be 0..65535, not " + port);
    }
    state.port = port;
    return this;
  }

  /** The endpoint path (default {@code /mcp}). */
  public HttpTransportBuilder path(String path) {
    requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.path: must start with '/', not '" + path + "'");
    }
    state.path = path;
    return this;
  }

  /**
   * Further browser origins to accept, such as {@code https://app.example.com}; loopback ones
   * always are.
   */
  public HttpTransportBuilder allowedOrigins(List<String> origins) {
    requireNonNull(origins, "allowedOrigins");
    origins.forEach(o -> state.allowedOrigins.add(requireNonNull(o, "allowedOrigins element")));
    return this;
  }

  /**
   * Further {@code Host} header values ({@code name[:port]}) to accept, for use behind a name or a
   * proxy.
   */
  public HttpTransportBuilder allowedHosts(List<String> hosts) {
    requireNonNull(hosts, "allowedHosts");
    hosts.forEach(h -> state.allowedHosts.add(requireNonNull(h, "allowedHosts element")));
    return this;
  }

  /**
   * A URL clients use to reach the endpoint, such as {@code https://prompts.example.com/mcp} —
   * through a DNS name, a reverse proxy or a load balancer. Its {@code host[:port]} is accepted in
   * {@code Host} and its origin in {@code Origin}. May be called more than once.
   *
   * @throws IllegalArgumentException when the URL is not an absolute http or https URL with a host
   */
  public HttpTransportBuilder publicUrl(URI url) {
    requireNonNull(url, "publicUrl");
    String scheme = url.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || url.getHost() == null
        || url.getRawUserInfo() != null
        || url.getRawQuery() != null
        || url.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.publicUrl: must be an http or https URL with a host (and no user, query or"
              + " fragment), not '" + url + "'");
    }
    state.publicUrls.add(url);
    return this;
  }

  /**
   * Whether to believe the forwarding headers of a reverse proxy on this machine (default false):
   * the same as {@link #trustedProxies} with {@code 127.0.0.0/8} and {@code ::1}; false believes no
   * proxy.
   */
  public HttpTransportBuilder trustProxy(boolean trust) {
    state.trustedProxies = trust ? TrustedProxies.LOOPBACK : null;
    return this;
  }

  /**
   * The reverse proxies whose {@code X-Forwarded-Proto}, {@code X-Forwarded-Host} and
   * {@code X-Forwarded-For} headers are believed (default: none), by address or CIDR range such as
   * {@code 10.0.0.0/8}. The forwarded host is then the one checked against the allowed hosts, and
   * the client is the rightmost {@code X-Forwarded-For} address that is not a trusted proxy's (what
   * lies left of it the client wrote itself). Requests from any other peer have their forwarding
   * headers ignored, and RFC 7239 {@code Forwarded} is never believed. A trusted proxy's
   * connections are not counted by {@link HttpLimits#maxConnectionsPerAddress}: the proxy must
   * limit its clients.
   *
   * @param proxies IP addresses and CIDR ranges; empty believes no proxy
   * @throws IllegalArgumentException naming an entry that is neither
   */
  public HttpTransportBuilder trustedProxies(List<String> proxies) {
    requireNonNull(proxies, "HttpTransportBuilder.trustedProxies");
    state.trustedProxies = proxies.isEmpty()
        ? null
        : TrustedProxies.parse(proxies, "HttpTransportBuilder.trustedProxies");
    return this;
  }

  /**
   * What one caller may take: body size, sessions (all and per caller), connections per address,
   * streams per client, the deadline for a request's head ({@link HttpLimits#DEFAULTS} unless set).
   */
  public HttpTransportBuilder limits(HttpLimits limits) {
    state.limits = requireNonNull(limits, "HttpTransportBuilder.limits");
    return this;
  }

  /**
   * Serves HTTPS with the PEM certificate chain in {@code cert} and the unencrypted PKCS#8 PEM
   * private key in {@code key}. The files are read at {@link #build()} and looked at again every
   * few seconds: a renewed pair is used for new connections without a restart.
   */
  public HttpTransportBuilder tls(Path cert, Path key) {
    state.tlsCert = requireNonNull(cert, "tls cert");
    state.tlsKey = requireNonNull(key, "tls key");
    return this;
  }

  /** How often the TLS files are looked at for a renewal (default 5 s); for tests. */
  HttpTransportBuilder tlsReloadInterval(Duration interval) {
    state.tlsReloadInterval = positive(interval, "tlsReloadInterval");
    return this;
  }

  /**
   * A static token every request must carry as {@code Authorization: Bearer <token>}; null for
   * none.
   */
  public HttpTransportBuilder bearerToken(@Nullable String token) {
    if (token != null && token.isBlank()) {
      throw new IllegalArgumentException("HttpTransportBuilder.bearerToken: must not be blank");
    }
    state.bearerToken = token;
    return this;
  }

  /**
   * Makes the endpoint an OAuth 2.1 resource server: every request needs a JWT access token from
   * the settings' issuer (see {@link OAuthSettings}); null for none. Excludes
   * {@link #bearerToken(String)}.
   */
  public HttpTransportBuilder oauth(@Nullable OAuthSettings settings) {
    state.oauth = settings;
    return this;
  }

  /**
   * The least time between two key-set refreshes caused by tokens naming unknown keys (default 15
   * s); for tests.
   */
  HttpTransportBuilder keyRefreshInterval(Duration interval) {
    state.keyRefreshInterval = positive(interval, "keyRefreshInterval");
    return this;
  }

  /** How long a legacy session may sit unused before it expires (default 30 min). */
  public HttpTransportBuilder sessionIdleTimeout(Duration timeout) {
    state.sessionIdleTimeout = positive(timeout, "sessionIdleTimeout");
    return this;
  }

  /** The clock that session idle expiry goes by (default: the system's); for tests. */
  HttpTransportBuilder sessionClock(SessionClock clock) {
    state.sessionClock = Objects.requireNonNull(clock, "HttpTransportBuilder.sessionClock");
    return this;
  }

  /**
   * Makes legacy sessions independent of the replica that opened them: session ids become tokens
   * signed with {@code secret} (HMAC-SHA256), which every replica given the same secret can check
   * and rebuild the session from, so that a load balancer without stickiness may send each request
   * anywhere. GET stream event ids then carry the catalog version, so that a stream resumed on
   * another replica learns of a missed prompt list change. Without a {@link #sessionStore shared
   * store}, DELETE, the idle timeout and {@code logging/setLevel} or {@code resources/subscribe}
   * hold on the replica that saw them only. A session then lives at most {@link #sessionMaxAge}.
   * Null (the default): ids are random and sessions live in this process.
   *
   * @param secret at least 16 bytes (32 random bytes recommended); copied
   * @throws IllegalArgumentException when shorter
   */
  public HttpTransportBuilder sessionSecret(byte @Nullable [] secret) {
    if (secret != null && secret.length < 16) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.sessionSecret: must be at least 16 bytes, not " + secret.length);
    }
    state.sessionSecret = secret == null ? null : secret.clone();
    return this;
  }

  /**
   * How long a legacy session may live from its {@code initialize} under a {@link #sessionSecret
   * session secret}, however much it is used (default 24 h): its id carries its issue time, and
   * past this age every replica answers it {@code 404}, so that the client opens a new session. It
   * is also how long the session store keeps what ends a session (its DELETE or its expiry), so
   * that a deleted id never comes back.
   */
  public HttpTransportBuilder sessionMaxAge(Duration maxAge) {
    state.sessionMaxAge = positive(maxAge, "sessionMaxAge");
    return this;
  }

  /**
   * The store every replica shares for what legacy sessions change, their last use and their end
   * (see {@link SessionStore}); needs a {@link #sessionSecret session secret}. A session missing
   * from it is unknown. Null (the default): each replica keeps its own, in memory.
   */
  public HttpTransportBuilder sessionStore(@Nullable SessionStore store) {
    state.sessionStore = store;
    return this;
  }

  /**
   * The catalog version that GET stream event ids carry under a {@link #sessionSecret session
   * secret}: it must be the same on every replica for the same prompts, such as a shared store's
   * version. Default: the served {@link io.promptd.mcp.server.PromptCatalog#version()}, right when
   * every replica applies the same changes in the same order.
   */
  public HttpTransportBuilder catalogVersion(@Nullable LongSupplier version) {
    state.catalogVersion = version;
    return this;
  }

  /**
   * How often a quiet SSE stream gets a comment line, which also reveals clients that left (default
   * 15 s).
   */
  public HttpTransportBuilder keepAliveInterval(Duration interval) {
    state.keepAliveInterval = positive(interval, "keepAliveInterval");
    return this;
  }

  /**
   * How long a modern request may run before its answer moves to an SSE stream (default 1 s). The
   * stream's keep-alives notice a client that went away, and closing the stream cancels the
   * request.
   */
  public HttpTransportBuilder streamAfter(Duration delay) {
    state.streamAfter = positive(delay, "streamAfter");
    return this;
  }

  /** How long {@link HttpTransport#close()} waits for in-flight requests (default 10 s). */
  public HttpTransportBuilder shutdownTimeout(Duration timeout) {
    state.shutdownTimeout = requireNonNull(timeout, "shutdownTimeout");
    return this;
  }

  /**
   * Adds a listener told about every finished request on the MCP endpoint (see
   * {@link RequestEvent}), for metrics and access logs. It runs on the thread that ends the
   * request, possibly one that serves other connections: it must be quick and must not block (hand
   * slow work such as file writes to a queue). What it throws is logged.
   */
  public HttpTransportBuilder onRequest(Consumer<RequestEvent> listener) {
    state.requestListeners.add(
        requireNonNull(listener, "HttpTransportBuilder.onRequest: listener"));
    return this;
  }

  /**
   * Adds a readiness check: {@code GET /readyz} answers 200 while every check returns true, else
   * 503 with a JSON body naming the checks that fail (and nothing more), such as
   * {@code {"status":"not ready","failing":["library loaded"]}}. {@code /healthz} (alive) ignores
   * them. Checks run on every probe, so they must be quick.
   *
   * @param name a short, public name such as {@code "library loaded"}; names must differ
   * @param ready whether the check passes now; one that throws fails
   */
  public HttpTransportBuilder readinessCheck(String name, BooleanSupplier ready) {
    requireNonNull(name, "HttpTransportBuilder.readinessCheck: name");
    requireNonNull(ready, "HttpTransportBuilder.readinessCheck: ready");
    if (name.isBlank()) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.readinessCheck: name must not be blank");
    }
    if (state.readinessChecks.putIfAbsent(name, ready) != null) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.readinessCheck: '" + name + "' was added already");
    }
    return this;
  }

  /**
   * Holds the requests that arrive before {@code opened} completes, for at most {@code atMost} from
   * {@link HttpTransport#start()}, and serves them then: a server whose catalog loads in the
   * background can open its port at once, without answering its first clients from a catalog still
   * empty. {@code /healthz} and {@code /readyz} are never held (readiness says whether the load is
   * done). Past {@code atMost} nothing is held any more.
   *
   * @param opened completes when the server is ready to answer (however it completes)
   * @param atMost how long a start may hold requests; positive
   */
  public HttpTransportBuilder holdRequestsUntil(CompletionStage<?> opened, Duration atMost) {
    requireNonNull(opened, "HttpTransportBuilder.holdRequestsUntil: opened");
    requireNonNull(atMost, "HttpTransportBuilder.holdRequestsUntil: atMost");
    if (atMost.isNegative() || atMost.isZero()) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.holdRequestsUntil: atMost must be positive");
    }
    state.hold = new JettyHandler.Hold(opened.toCompletableFuture(), atMost);
    return this;
  }

  /**
   * Serves {@code mount} at {@code path} of the MCP port, such as a web page beside the endpoint. A
   * mount serves exactly its path (mount each file of a page); it gets requests after the Host and
   * Origin checks and without the endpoint's authentication (see {@link HttpMount}), so it must
   * serve nothing that needs a token. The MCP endpoint's path must differ from every mount's.
   *
   * @param path an absolute path, not one the transport serves itself ({@code /healthz},
   *     {@code /readyz}, {@code /sse}, {@code /messages},
   *     {@code /.well-known/oauth-protected-resource...}); each path once
   * @throws IllegalArgumentException when the path is not absolute, is the transport's own, or is
   *     mounted already
   */
  public HttpTransportBuilder mount(String path, HttpMount mount) {
    state.mounts.add(path, mount);
    return this;
  }

  /**
   * Serves a further MCP endpoint at {@code path} of the same port: another {@link McpServer} (such
   * as another view of the prompts) with everything the main endpoint has — both protocol eras,
   * legacy sessions and their GET streams, modern listen streams — behind the same checks and
   * authentication. Its legacy sessions are its own: an id issued at one path is unknown at every
   * other (under a {@link #sessionSecret session secret}, a further endpoint signs its ids with a
   * key derived from the secret and its path, so replicas with the same secret still share them).
   * The old HTTP+SSE transport ({@code /sse}) and the OAuth metadata stay the main endpoint's. The
   * transport does not close the server.
   *
   * @param path an absolute path, neither the main endpoint's nor a mount's nor the transport's
   *     own; each path once
   * @param catalogVersion what its GET stream event ids carry (see {@link #catalogVersion}), or
   *     null for its server's catalog version
   * @throws IllegalArgumentException when the path is not absolute, is the transport's own, or is
   *     added already
   */
  public HttpTransportBuilder endpoint(
      String path, McpServer server, @Nullable LongSupplier catalogVersion) {
    requireNonNull(path, "HttpTransportBuilder.endpoint: path");
    requireNonNull(server, "HttpTransportBuilder.endpoint: server");
    // The same checks as a mount's path, on a scratch list: the endpoint must not shadow the
    // transport's routes.
    new Mounts("endpoint", true).add(path, (request, response) -> {});
    if (state.endpoints.stream().anyMatch(e -> e.path().equals(path))) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.endpoint: " + path + " is an endpoint already");
    }
    state.endpoints.add(new HttpConfig.Further(path, server, catalogVersion));
    return this;
  }

  /**
   * Serves {@code mount} at {@code path} of the MCP port behind the MCP endpoint's authentication:
   * a request gets to it only when the transport's bearer token or OAuth resource server admits it
   * (else it is refused with 400, 401 or 403 and the {@code WWW-Authenticate} challenge, as the
   * endpoint refuses), and {@link MountRequest#caller} says who sent it. Without authentication
   * configured every request is admitted as {@link io.promptd.mcp.spi.Caller#UNRESTRICTED}.
   * Otherwise as {@link #mount(String, HttpMount)}.
   *
   * @throws IllegalArgumentException as {@link #mount(String, HttpMount)}
   */
  public HttpTransportBuilder authenticatedMount(String path, HttpMount mount) {
    requireNonNull(mount, "HttpTransportBuilder.authenticatedMount: mount");
    state.mounts.add(path, new Mounts.Authenticated(mount));
    return this;
  }

  /**
   * Adds the admin listener: a second port of the same server, for operators, that serves
   * {@code /healthz} and {@code /readyz} (as the MCP port does) and the {@linkplain #adminMount
   * admin mounts}, such as {@code /metrics}; anything else gets 404. Plain HTTP, never the MCP
   * endpoint, no token, no request events. Bound to a loopback address it accepts only loopback
   * names in {@code Host} (against DNS rebinding); bound elsewhere, any.
   * {@link HttpTransport#adminUri()} tells where it listens.
   *
   * @param host the address to bind, such as {@code 127.0.0.1} (this machine only) or
   *     {@code 0.0.0.0}
   * @param port the port to bind; 0 picks a free one; it must differ from the MCP port
   */
  public HttpTransportBuilder admin(String host, int port) {
    requireNonNull(host, "HttpTransportBuilder.admin: host");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder.admin: port must be 0..65535, not " + port);
    }
    state.adminHost = host;
    state.adminPort = port;
    return this;
  }

  /**
   * Serves {@code mount} at {@code path} of the {@linkplain #admin admin listener}, such as
   * {@code /metrics}; needs {@link #admin(String, int)}.
   *
   * @param path an absolute path other than {@code /healthz} and {@code /readyz}; each path once
   * @throws IllegalArgumentException when the path is not absolute, is a probe's, or is mounted
   *     already
   */
  public HttpTransportBuilder adminMount(String path, HttpMount mount) {
    state.adminMounts.add(path, mount);
    return this;
  }

  /**
   * Builds the transport; {@link HttpTransport#start()} binds it.
   *
   * @throws IllegalStateException when no server was set, when both a bearer token and OAuth were,
   *     when a non-loopback address is to be bound without either (such a server would answer
   *     anyone who can reach it), or a trusted proxy is to forward a public URL that is not this
   *     machine's without either, when the MCP path is a mount's, or when admin mounts were added
   *     without an admin listener
   * @throws UncheckedIOException when the TLS files cannot be read or do not form a pair
   */
  public HttpTransport build() {
    return new HttpTransport(state.config());
  }

  private static Duration positive(Duration d, String what) {
    requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder." + what + ": must be positive, not " + d);
    }
    return d;
  }
}
