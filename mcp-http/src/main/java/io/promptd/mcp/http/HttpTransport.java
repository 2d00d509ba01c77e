package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.StreamQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Serves an {@link McpServer} over Streamable HTTP on one endpoint, to legacy clients (sessions, 2025-03-26 to
 * 2025-11-25) and modern clients (stateless, 2026-07-28) at the same time.
 *
 * <p>Safe by default: it binds 127.0.0.1, refuses foreign {@code Host} and {@code Origin} headers with 403 (loopback
 * names with the bound port are allowed), limits request bodies, and can require a static bearer token — the minimum
 * for remote use until OAuth arrives. Errors are JSON-RPC error bodies or plain 4xx; never a stack trace.
 *
 * <pre>{@code
 * try (HttpTransport http = HttpTransport.builder().server(mcpServer).port(0).build().start()) {
 *   System.err.println("serving on " + http.uri());
 *   ...
 * }
 * }</pre>
 */
public final class HttpTransport implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final Builder config;
  private final SessionRegistry sessions;
  private final @Nullable SharedSessions shared;
  private final ModernEndpoint modern;
  private final SseTransportEndpoint sse;
  private final McpHandler handler;
  private final Telemetry telemetry;
  private final JettyServer jetty;
  private final @Nullable IssuerKeys issuerKeys;
  private volatile @Nullable ResourceServer oauth;
  private volatile boolean started;
  private volatile boolean closed;

  private HttpTransport(Builder b, McpServer server, @Nullable TlsFiles tls) {
    this.config = b;
    this.sessions = new SessionRegistry(b.sessionIdleTimeout, b.maxSessions, b.sessionClock);
    this.modern = new ModernEndpoint(server, b.keepAliveInterval, b.streamAfter, b.streamLimits);
    byte[] secret = b.sessionSecret;
    SessionStore store = b.sessionStore;
    this.shared = secret == null ? null : new SharedSessions(server, sessions, new SessionTokens(secret),
        store == null ? SessionStore.inMemory() : store, store != null, b.sessionIdleTimeout, b.streamLimits,
        b.catalogVersion == null ? server.prompts()::version : b.catalogVersion);
    LegacyEndpoint legacy = new LegacyEndpoint(server, sessions, b.keepAliveInterval, b.streamLimits, shared);
    Map<String, BooleanSupplier> checks = new LinkedHashMap<>(b.readinessChecks);
    if (b.oauth != null) {
      checks.putIfAbsent("oauth issuer keys fetched", this::authReady); // no token can be accepted until they are
    }
    this.telemetry = new Telemetry(b.requestListeners, checks);
    this.sse = new SseTransportEndpoint(server, b.maxBodyBytes, b.keepAliveInterval, b.streamLimits, b.maxSessions,
        sessions::size);
    this.handler = new McpHandler(b.path, b.maxBodyBytes, legacy, modern, sse, telemetry, b.hold);
    OAuthSettings o = b.oauth;
    this.issuerKeys = o == null ? null : new IssuerKeys(o.issuer(), b.keyRefreshInterval);
    // With OAuth: room for an access token up to the verifier's limit, so that a larger one gets its 401, not a 431.
    // The idle timeout is longer than the keep-alive interval, so that quiet SSE streams are not cut by the server.
    this.jetty = new JettyServer(b.host, b.port, handler, Duration.ofMillis(Math.max(30_000,
        b.keepAliveInterval.toMillis() * 3)), o == null ? 0 : 2 * TokenVerifier.MAX_TOKEN_CHARS, b.trustProxy, tls,
        b.acceptedSendBufferSize);
  }

  /** Returns a builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds the port and starts serving.
   *
   * @return this transport
   * @throws IOException when the port cannot be bound
   * @throws IllegalStateException when already started or closed
   */
  public HttpTransport start() throws IOException {
    if (started || closed) {
      throw new IllegalStateException("HttpTransport.start: already " + (closed ? "closed" : "started"));
    }
    try {
      jetty.start();
    } catch (Exception e) {
      close();
      throw e instanceof IOException io ? io
          : new IOException("could not start the HTTP server on " + config.host + ":" + config.port, e);
    }
    started = true;
    ResourceServer rs = null;
    OAuthSettings o = config.oauth;
    IssuerKeys keys = issuerKeys;
    if (o != null && keys != null) {
      keys.start(); // in the background: an unreachable issuer does not stop the server from starting
      // The resource is what clients use: the first public URL when there is one, else the local URI.
      URI resource = config.publicUrls.isEmpty() ? uri() : config.publicUrls.getFirst();
      rs = new ResourceServer(o, resource, config.path, keys);
      oauth = rs;
    }
    handler.guard(new Guard(port(), config.host, config.publicUrls, config.allowedHosts, config.allowedOrigins,
        config.bearerToken), rs);
    LOG.log(Level.DEBUG, "MCP endpoint at {0}", uri());
    return this;
  }

  /** The bound port (the real one when 0 was asked for). */
  public int port() {
    if (!started) {
      throw new IllegalStateException("HttpTransport.port: not started");
    }
    return jetty.localPort();
  }

  /**
   * The endpoint's local URI, such as {@code http://127.0.0.1:8080/mcp} ({@code https} with TLS); a wildcard bind
   * gives the loopback address. Clients elsewhere use a {@linkplain #publicUris() public URL}.
   */
  public URI uri() {
    port(); // started?
    return jetty.uri(config.path);
  }

  /**
   * The URLs this endpoint can be reached by without a configured name: the public URLs when some were configured;
   * else, bound to every interface, one per interface address (loopback ones last); else {@link #uri()}.
   */
  public List<URI> reachableUris() {
    port(); // started?
    return config.publicUrls.isEmpty() ? jetty.reachableUris(config.path) : publicUris();
  }

  /** The public URLs clients use to reach the endpoint, as configured; empty when none were. */
  public List<URI> publicUris() {
    return List.copyOf(config.publicUrls);
  }

  /**
   * Whether requests can be authorized now: always without OAuth; with OAuth, once the issuer's keys have been
   * fetched (until then every token is refused with 401, and the fetch is retried in the background).
   */
  public boolean authReady() {
    IssuerKeys keys = issuerKeys;
    return keys == null || keys.ready();
  }

  /** Why requests cannot be authorized yet (such as an unreachable issuer), or empty when they can. */
  public Optional<String> authProblem() {
    IssuerKeys keys = issuerKeys;
    return Optional.ofNullable(keys == null ? null : keys.problem());
  }

  /**
   * The URL of the OAuth Protected Resource Metadata (RFC 9728) that 401 challenges name, or empty without OAuth.
   *
   * @throws IllegalStateException when not started
   */
  public Optional<URI> resourceMetadataUri() {
    if (!started) {
      throw new IllegalStateException("HttpTransport.resourceMetadataUri: not started");
    }
    ResourceServer rs = oauth;
    return rs == null ? Optional.empty() : Optional.of(URI.create(rs.metadataUrl()));
  }

  /** How many legacy sessions are open now: Streamable HTTP ones and those of the old HTTP+SSE transport. */
  public int sessionCount() {
    return sessions.size() + sse.size();
  }

  /** How many SSE response streams are open now: legacy GET streams, modern listen streams and streamed answers. */
  public int openStreams() {
    return telemetry.openStreams();
  }

  /**
   * The names of the {@linkplain Builder#readinessCheck readiness checks} that fail now, in the order they were added,
   * then {@code "oauth issuer keys fetched"} while OAuth is on and no access token can be checked yet, after {@code
   * "server running"} while not started or once closing; empty when the server is ready. {@code /readyz}
   * answers 503 with these names while any fails.
   */
  public List<String> notReady() {
    List<String> failing = telemetry.notReady();
    if (!started || closed) {
      failing.addFirst("server running");
    }
    return failing;
  }

  /** How many times the TLS files were looked at for a renewal; for tests. */
  int tlsLooks() {
    return jetty.tlsLooks();
  }

  /** How many modern requests are in flight (open listen streams included); for tests. */
  int modernInFlight() {
    return modern.inFlight();
  }

  /** How many modern requests ended because their client closed the stream; for tests. */
  long modernCancelled() {
    return modern.cancelled();
  }

  /**
   * Stops gracefully: new requests get 503, open streams end cleanly (a modern {@code subscriptions/listen} with its
   * final response), in-flight requests finish within the shutdown timeout, then the port is released. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      handler.stopAccepting();
      if (shared != null) {
        shared.close();
      }
      sessions.closeAll();
      if (!handler.drain(config.shutdownTimeout, () -> {
        modern.closeAll();
        sse.closeAll();
      })) {
        LOG.log(Level.WARNING, "some HTTP requests did not finish within {0}", config.shutdownTimeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      modern.close();
      if (issuerKeys != null) {
        issuerKeys.close();
      }
      try {
        jetty.stop();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "the HTTP server did not stop cleanly", e);
      }
    }
  }

  /** Configures an {@link HttpTransport}. */
  public static final class Builder {
    private @Nullable McpServer server;
    private String host = "127.0.0.1";
    private int port = 0;
    private String path = "/mcp";
    private final List<String> allowedOrigins = new ArrayList<>();
    private final List<String> allowedHosts = new ArrayList<>();
    private final List<URI> publicUrls = new ArrayList<>();
    private boolean trustProxy;
    private @Nullable Path tlsCert;
    private @Nullable Path tlsKey;
    private Duration tlsReloadInterval = Duration.ofSeconds(5);
    private @Nullable String bearerToken;
    private @Nullable OAuthSettings oauth;
    private Duration keyRefreshInterval = Duration.ofSeconds(15);
    private Duration sessionIdleTimeout = Duration.ofMinutes(30);
    private SessionClock sessionClock = SessionClock.SYSTEM;
    private int maxSessions = 10_000;
    private byte @Nullable [] sessionSecret;
    private @Nullable SessionStore sessionStore;
    private @Nullable LongSupplier catalogVersion;
    private int maxBodyBytes = 4 * 1024 * 1024;
    private Duration keepAliveInterval = Duration.ofSeconds(15);
    private Duration streamAfter = Duration.ofSeconds(1);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private StreamQueue.Limits streamLimits = StreamQueue.Limits.DEFAULT;
    private int acceptedSendBufferSize = -1;
    private final List<Consumer<RequestEvent>> requestListeners = new ArrayList<>();
    private final Map<String, BooleanSupplier> readinessChecks = new LinkedHashMap<>();
    private McpHandler.@Nullable Hold hold;

    private Builder() {}

    /** How far an SSE stream may fall behind before it is closed (default 1,000 messages or 30 s); for tests. */
    Builder streamLimits(StreamQueue.Limits limits) {
      this.streamLimits = requireNonNull(limits, "streamLimits");
      return this;
    }

    /** The socket send buffer of accepted connections, in bytes (default: the system's); for tests. */
    Builder acceptedSendBufferSize(int bytes) {
      this.acceptedSendBufferSize = bytes;
      return this;
    }

    /** The MCP server to serve (required). The transport does not close it. */
    public Builder server(McpServer server) {
      this.server = requireNonNull(server, "server");
      return this;
    }

    /** The address to bind (default 127.0.0.1; anything else exposes the server beyond this machine). */
    public Builder host(String host) {
      this.host = requireNonNull(host, "host");
      return this;
    }

    /** The port to bind; 0 (the default) picks a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("HttpTransport.Builder.port: must be 0..65535, not " + port);
      }
      this.port = port;
      return this;
    }

    /** The endpoint path (default {@code /mcp}). */
    public Builder path(String path) {
      requireNonNull(path, "path");
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("HttpTransport.Builder.path: must start with '/', not '" + path + "'");
      }
      this.path = path;
      return this;
    }

    /** Further browser origins to accept, such as {@code https://app.example.com}; loopback ones always are. */
    public Builder allowedOrigins(List<String> origins) {
      requireNonNull(origins, "allowedOrigins");
      origins.forEach(o -> allowedOrigins.add(requireNonNull(o, "allowedOrigins element")));
      return this;
    }

    /** Further {@code Host} header values ({@code name[:port]}) to accept, for use behind a name or a proxy. */
    public Builder allowedHosts(List<String> hosts) {
      requireNonNull(hosts, "allowedHosts");
      hosts.forEach(h -> allowedHosts.add(requireNonNull(h, "allowedHosts element")));
      return this;
    }

    /**
     * A URL clients use to reach the endpoint, such as {@code https://prompts.example.com/mcp} — through a DNS name, a
     * reverse proxy or a load balancer. Its {@code host[:port]} is accepted in {@code Host} and its origin in {@code
     * Origin}. May be called more than once.
     *
     * @throws IllegalArgumentException when the URL is not an absolute http or https URL with a host
     */
    public Builder publicUrl(URI url) {
      requireNonNull(url, "publicUrl");
      String scheme = url.getScheme();
      if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || url.getHost() == null || url.getRawUserInfo() != null || url.getRawQuery() != null
          || url.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "HttpTransport.Builder.publicUrl: must be an http or https URL with a host (and no user, query or"
                + " fragment), not '" + url + "'");
      }
      publicUrls.add(url);
      return this;
    }

    /**
     * Whether to believe {@code X-Forwarded-Proto}, {@code X-Forwarded-Host}, {@code X-Forwarded-For} (and {@code
     * Forwarded}) headers (default false). Only behind a reverse proxy that sets them: a client could forge them
     * otherwise. The forwarded host is then the one checked against the allowed hosts.
     */
    public Builder trustProxy(boolean trust) {
      this.trustProxy = trust;
      return this;
    }

    /**
     * Serves HTTPS with the PEM certificate chain in {@code cert} and the unencrypted PKCS#8 PEM private key in {@code
     * key}. The files are read at {@link #build()} and looked at again every few seconds: a renewed pair is used for
     * new connections without a restart.
     */
    public Builder tls(Path cert, Path key) {
      this.tlsCert = requireNonNull(cert, "tls cert");
      this.tlsKey = requireNonNull(key, "tls key");
      return this;
    }

    /** How often the TLS files are looked at for a renewal (default 5 s); for tests. */
    Builder tlsReloadInterval(Duration interval) {
      this.tlsReloadInterval = positive(interval, "tlsReloadInterval");
      return this;
    }

    /** A static token every request must carry as {@code Authorization: Bearer <token>}; null for none. */
    public Builder bearerToken(@Nullable String token) {
      if (token != null && token.isBlank()) {
        throw new IllegalArgumentException("HttpTransport.Builder.bearerToken: must not be blank");
      }
      this.bearerToken = token;
      return this;
    }

    /**
     * Makes the endpoint an OAuth 2.1 resource server: every request needs a JWT access token from the settings'
     * issuer (see {@link OAuthSettings}); null for none. Excludes {@link #bearerToken(String)}.
     */
    public Builder oauth(@Nullable OAuthSettings settings) {
      this.oauth = settings;
      return this;
    }

    /** The least time between two key-set refreshes caused by tokens naming unknown keys (default 15 s); for tests. */
    Builder keyRefreshInterval(Duration interval) {
      this.keyRefreshInterval = positive(interval, "keyRefreshInterval");
      return this;
    }

    /** How long a legacy session may sit unused before it expires (default 30 min). */
    public Builder sessionIdleTimeout(Duration timeout) {
      this.sessionIdleTimeout = positive(timeout, "sessionIdleTimeout");
      return this;
    }

    /** The clock that session idle expiry goes by (default: the system's); for tests. */
    Builder sessionClock(SessionClock clock) {
      this.sessionClock = Objects.requireNonNull(clock, "HttpTransport.Builder.sessionClock");
      return this;
    }

    /**
     * Makes legacy sessions independent of the replica that opened them: session ids become tokens signed with {@code
     * secret} (HMAC-SHA256), which every replica given the same secret can check and rebuild the session from, so that
     * a load balancer without stickiness may send each request anywhere. GET stream event ids then carry the catalog
     * version, so that a stream resumed on another replica learns of a missed prompt list change. Without a {@link
     * #sessionStore shared store}, DELETE, the idle timeout and {@code logging/setLevel} or {@code resources/subscribe}
     * hold on the replica that saw them only. Null (the default): ids are random and sessions live in this process.
     *
     * @param secret at least 16 bytes (32 random bytes recommended); copied
     * @throws IllegalArgumentException when shorter
     */
    public Builder sessionSecret(byte @Nullable [] secret) {
      if (secret != null && secret.length < 16) {
        throw new IllegalArgumentException("HttpTransport.Builder.sessionSecret: must be at least 16 bytes, not "
            + secret.length);
      }
      this.sessionSecret = secret == null ? null : secret.clone();
      return this;
    }

    /**
     * The store every replica shares for what legacy sessions change, their last use and their end (see {@link
     * SessionStore}); needs a {@link #sessionSecret session secret}. A session missing from it is unknown. Null (the
     * default): each replica keeps its own, in memory.
     */
    public Builder sessionStore(@Nullable SessionStore store) {
      this.sessionStore = store;
      return this;
    }

    /**
     * The catalog version that GET stream event ids carry under a {@link #sessionSecret session secret}: it must be the
     * same on every replica for the same prompts, such as a shared store's version. Default: the served {@link
     * io.promptd.mcp.server.PromptCatalog#version()}, right when every replica applies the same changes in the same
     * order.
     */
    public Builder catalogVersion(@Nullable LongSupplier version) {
      this.catalogVersion = version;
      return this;
    }

    /** How many legacy sessions may be open at once (default 10,000); more get 503. */
    public Builder maxSessions(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("HttpTransport.Builder.maxSessions: must be at least 1, not " + max);
      }
      this.maxSessions = max;
      return this;
    }

    /** The largest request body accepted (default 4 MiB); larger ones get 413. */
    public Builder maxBodyBytes(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("HttpTransport.Builder.maxBodyBytes: must be at least 1, not " + max);
      }
      this.maxBodyBytes = max;
      return this;
    }

    /** How often a quiet SSE stream gets a comment line, which also reveals clients that left (default 15 s). */
    public Builder keepAliveInterval(Duration interval) {
      this.keepAliveInterval = positive(interval, "keepAliveInterval");
      return this;
    }

    /**
     * How long a modern request may run before its answer moves to an SSE stream (default 1 s). The stream's
     * keep-alives notice a client that went away, and closing the stream cancels the request.
     */
    public Builder streamAfter(Duration delay) {
      this.streamAfter = positive(delay, "streamAfter");
      return this;
    }

    /** How long {@link HttpTransport#close()} waits for in-flight requests (default 10 s). */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = requireNonNull(timeout, "shutdownTimeout");
      return this;
    }

    /**
     * Adds a listener told about every finished request on the MCP endpoint (see {@link RequestEvent}), for metrics
     * and access logs. It runs on the thread that ends the request, possibly one that serves other connections: it
     * must be quick and must not block (hand slow work such as file writes to a queue). What it throws is logged.
     */
    public Builder onRequest(Consumer<RequestEvent> listener) {
      requestListeners.add(requireNonNull(listener, "HttpTransport.Builder.onRequest: listener"));
      return this;
    }

    /**
     * Adds a readiness check: {@code GET /readyz} answers 200 while every check returns true, else 503 with a JSON
     * body naming the checks that fail (and nothing more), such as {@code {"status":"not ready","failing":["library
     * loaded"]}}. {@code /healthz} (alive) ignores them. Checks run on every probe, so they must be quick.
     *
     * @param name a short, public name such as {@code "library loaded"}; names must differ
     * @param ready whether the check passes now; one that throws fails
     */
    public Builder readinessCheck(String name, BooleanSupplier ready) {
      requireNonNull(name, "HttpTransport.Builder.readinessCheck: name");
      requireNonNull(ready, "HttpTransport.Builder.readinessCheck: ready");
      if (name.isBlank()) {
        throw new IllegalArgumentException("HttpTransport.Builder.readinessCheck: name must not be blank");
      }
      if (readinessChecks.putIfAbsent(name, ready) != null) {
        throw new IllegalArgumentException("HttpTransport.Builder.readinessCheck: '" + name + "' was added already");
      }
      return this;
    }

    /**
     * Holds the requests that arrive before {@code opened} completes, for at most {@code atMost} from {@link
     * HttpTransport#start()}, and serves them then: a server whose catalog loads in the background can open its port
     * at once, without answering its first clients from a catalog still empty. {@code /healthz} and {@code /readyz}
     * are never held (readiness says whether the load is done). Past {@code atMost} nothing is held any more.
     *
     * @param opened completes when the server is ready to answer (however it completes)
     * @param atMost how long a start may hold requests; positive
     */
    public Builder holdRequestsUntil(CompletionStage<?> opened, Duration atMost) {
      requireNonNull(opened, "HttpTransport.Builder.holdRequestsUntil: opened");
      requireNonNull(atMost, "HttpTransport.Builder.holdRequestsUntil: atMost");
      if (atMost.isNegative() || atMost.isZero()) {
        throw new IllegalArgumentException("HttpTransport.Builder.holdRequestsUntil: atMost must be positive");
      }
      this.hold = new McpHandler.Hold(opened.toCompletableFuture(), atMost);
      return this;
    }

    /**
     * Builds the transport; {@link HttpTransport#start()} binds it.
     *
     * @throws IllegalStateException when no server was set, when both a bearer token and OAuth were, or when a
     *     non-loopback address is to be bound without either: such a server would answer anyone who can reach it
     * @throws UncheckedIOException when the TLS files cannot be read or do not form a pair
     */
    public HttpTransport build() {
      McpServer s = server;
      if (s == null) {
        throw new IllegalStateException("HttpTransport.Builder.build: server(...) is required");
      }
      if (bearerToken != null && oauth != null) {
        throw new IllegalStateException("HttpTransport.Builder.build: bearerToken(...) and oauth(...) exclude each"
            + " other; use one");
      }
      if (!authenticates() && !Loopback.isLoopback(host)) {
        throw new IllegalStateException("binding " + host + " would expose the server beyond this machine without"
            + " authentication; require a bearer token or OAuth, or bind a loopback address");
      }
      if (sessionStore != null && sessionSecret == null) {
        throw new IllegalStateException("HttpTransport.Builder.build: sessionStore(...) needs sessionSecret(...):"
            + " replicas must be able to check each other's session ids");
      }
      TlsFiles files = null;
      if (tlsCert != null && tlsKey != null) {
        try {
          files = new TlsFiles(tlsCert, tlsKey, tlsReloadInterval);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return new HttpTransport(this, s, files);
    }

    private boolean authenticates() {
      return bearerToken != null || oauth != null;
    }

    private static Duration positive(Duration d, String what) {
      requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("HttpTransport.Builder." + what + ": must be positive, not " + d);
      }
      return d;
    }
  }
}
