package io.promptd.mcp.http;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.http.internal.auth.Authenticator;
import io.promptd.mcp.http.internal.auth.BearerToken;
import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.auth.HostCheck;
import io.promptd.mcp.http.internal.auth.IssuerKeys;
import io.promptd.mcp.http.internal.auth.ResourceServer;
import io.promptd.mcp.http.internal.auth.TokenVerifier;
import io.promptd.mcp.http.internal.exchange.Router;
import io.promptd.mcp.http.internal.exchange.StreamLimit;
import io.promptd.mcp.http.internal.exchange.Telemetry;
import io.promptd.mcp.http.internal.jetty.AdminListener;
import io.promptd.mcp.http.internal.jetty.HeadDeadline;
import io.promptd.mcp.http.internal.jetty.JettyHandler;
import io.promptd.mcp.http.internal.jetty.JettyServer;
import io.promptd.mcp.http.internal.jetty.TlsFiles;
import io.promptd.mcp.http.internal.mcp.McpEndpoint;
import io.promptd.mcp.http.internal.mcp.ModernEndpoint;
import io.promptd.mcp.http.internal.route.MetadataRoute;
import io.promptd.mcp.http.internal.route.MountRoute;
import io.promptd.mcp.http.internal.route.Probes;
import io.promptd.mcp.http.internal.session.SessionRegistry;
import io.promptd.mcp.http.internal.session.SharedSessions;
import io.promptd.mcp.http.internal.sse.SseRoute;
import io.promptd.mcp.http.internal.sse.SseTransportEndpoint;
import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Serves an {@link McpServer} over Streamable HTTP on one endpoint, to legacy clients (sessions,
 * 2025-03-26 to 2025-11-25) and modern clients (stateless, 2026-07-28) at the same time.
 *
 * <p>Safe by default: it binds 127.0.0.1, refuses foreign {@code Host} and {@code Origin} headers
 * with 403 (loopback names with the bound port are allowed), limits request bodies, and can require
 * a static bearer token — the minimum for remote use until OAuth arrives. Errors are JSON-RPC error
 * bodies or plain 4xx; never a stack trace.
 *
 * <pre>{@code
 * try (HttpTransport http = HttpTransport.builder().server(mcpServer).port(0).build().start()) {
 *   System.err.println("serving on " + http.uri());
 *   ...
 * }
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class HttpTransport implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final HttpConfig config;
  private final SessionRegistry sessions;
  private final @Nullable SharedSessions shared;
  private final ModernEndpoint modern;
  /**
   * The {@linkplain HttpTransportBuilder#endpoint further endpoints}, each with sessions of its
   * own.
   */
  private final List<ServedEndpoint> further;

  private final SseTransportEndpoint sse;
  private final Gate gate = new Gate();
  private final Router router;
  private final JettyHandler handler;
  private final Telemetry telemetry;
  private final JettyServer jetty;
  private final @Nullable IssuerKeys issuerKeys;
  private volatile @Nullable ResourceServer oauth;
  private volatile boolean started;
  private volatile boolean closed;
  private final CountDownLatch stopped = new CountDownLatch(1);

  HttpTransport(HttpConfig b) {
    TlsFiles tls = b.openTls(); // first: as the builder did before making the transport
    McpServer server = b.server();
    this.config = b;
    StreamLimit streams = new StreamLimit(b.limits().maxStreamsPerClient());
    ServedEndpoint main =
        new ServedEndpoint(b, b.path(), server, b.catalogVersion(), true, gate, streams);
    this.sessions = main.sessions;
    this.modern = main.modern;
    this.shared = main.shared;
    this.further = b.endpoints().stream()
        .map(e ->
            new ServedEndpoint(b, e.path(), e.server(), e.catalogVersion(), false, gate, streams))
        .toList();
    Map<String, BooleanSupplier> checks = new LinkedHashMap<>(b.readinessChecks());
    if (b.oauth() != null) {
      checks.putIfAbsent(
          "oauth issuer keys fetched", this::authReady); // no token can be accepted until they are
    }
    this.telemetry = new Telemetry(
        b.requestListeners(),
        checks,
        (time,
            transport,
            httpMethod,
            era,
            method,
            prompt,
            outcome,
            status,
            errorCode,
            duration,
            subject) -> RequestEvent.builder(time, transport)
            .request(httpMethod, era, method, prompt)
            .ended(outcome, status, errorCode, duration)
            .subject(subject)
            .build());
    this.sse = new SseTransportEndpoint(
        server,
        b.limits().maxBodyBytes(),
        b.keepAliveInterval(),
        b.streamLimits(),
        b.limits().maxSessions(),
        b.limits().maxSessionsPerCaller(),
        sessions::size);
    McpEndpoint endpoint = main.route;
    // The MCP endpoint first: the first route mounted at a path wins, and nothing hides the
    // endpoint.
    this.router = new Router(ex -> ex.refuse(404, "Not Found: the MCP endpoint is " + b.path()));
    router.mount(b.path(), endpoint);
    further.forEach(e -> router.mount(e.path, e.route));
    new Probes(gate, gate::forbidden, telemetry).mountOn(router);
    new SseRoute(gate, sse, streams).mountOn(router);
    b.mounts().forEach((p, m) -> router.mount(p, new MountRoute(gate, gate::forbidden, m)));
    String adminHost = b.adminHost();
    AdminListener admin = adminHost == null
        ? null
        : new AdminListener(
            adminHost,
            b.adminPort(),
            b.adminMounts().entrySet().stream()
                .map(e -> new AdminListener.Mounted(e.getKey(), e.getValue()))
                .toList());
    HeadDeadline deadline =
        new HeadDeadline(b.limits().requestHeaderTimeout(), b.limits().minRequestDataRate());
    this.handler = new JettyHandler(
        router,
        endpoint,
        admin == null ? null : adminRouter(admin, gate, telemetry),
        gate,
        telemetry,
        b.hold(),
        deadline);
    OAuthSettings o = b.oauth();
    this.issuerKeys = o == null ? null : new IssuerKeys(o.issuer(), b.keyRefreshInterval());
    // With OAuth: room for an access token up to the verifier's limit, so that a larger one gets
    // its 401, not a 431.
    // The idle timeout is longer than the keep-alive interval, so that quiet SSE streams are not
    // cut by the server.
    this.jetty = new JettyServer(
        b.host(),
        b.port(),
        handler,
        Duration.ofMillis(Math.max(30_000, b.keepAliveInterval().toMillis() * 3)),
        o == null ? 0 : 2 * TokenVerifier.MAX_TOKEN_CHARS,
        new JettyServer.Connections(
            deadline,
            b.limits().maxConnectionsPerAddress(),
            b.limits().maxConnections(),
            b.trustedProxies()),
        tls,
        b.acceptedSendBufferSize(),
        admin);
  }

  /**
   * The admin listener's routes: the probes and the embedder's mounts, under the admin listener's
   * Host check.
   */
  private static Router adminRouter(AdminListener admin, Gate gate, Telemetry telemetry) {
    HostCheck hosts = HostCheck.admin(admin.host());
    List<String> paths = new ArrayList<>(List.of(Probes.HEALTHZ, Probes.READYZ));
    admin.mounts().forEach(m -> paths.add(m.path()));
    String notFound = "Not Found: the admin port serves " + String.join(", ", paths);
    Router router = new Router(
        new MountRoute(gate, hosts, (request, response) -> response.refuse(404, notFound)));
    new Probes(gate, hosts, telemetry).mountOn(router);
    admin.mounts().forEach(m -> router.mount(m.path(), new MountRoute(gate, hosts, m.mount())));
    return router;
  }

  /** Returns a builder. */
  public static HttpTransportBuilder builder() {
    return new HttpTransportBuilder();
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
      throw new IllegalStateException(
          "HttpTransport.start: already " + (closed ? "closed" : "started"));
    }
    try {
      jetty.start();
    } catch (Exception e) {
      close();
      if (causedBy(e, BindException.class)) {
        throw new IOException(
            "cannot listen on " + config.host() + ":" + config.port() + ": the address is in use"
                + " (another server on that port?); choose another port, or 0 for any free one",
            e);
      }
      throw e instanceof IOException io
          ? io
          : new IOException(
              "could not start the HTTP server on " + config.host() + ":" + config.port(), e);
    }
    started = true;
    String token = config.bearerToken();
    Authenticator auth = token != null ? new BearerToken(token) : Authenticator.NONE;
    OAuthSettings o = config.oauth();
    IssuerKeys keys = issuerKeys;
    if (o != null && keys != null) {
      // In the background: an unreachable issuer does not stop the server from starting
      keys.start();
      // The resource is what clients use: the first public URL when there is one, else the local
      // URI.
      URI resource = config.publicUrls().isEmpty() ? uri() : config.publicUrls().getFirst();
      ResourceServer rs = new ResourceServer(o, resource, config.path(), keys);
      new MetadataRoute(gate, rs).mountOn(router);
      oauth = rs;
      auth = rs;
    }
    handler.opening();
    gate.open(
        new Guard(
            port(),
            config.host(),
            config.publicUrls(),
            config.allowedHosts(),
            config.allowedOrigins()),
        auth);
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
   * The endpoint's local URI, such as {@code http://127.0.0.1:8080/mcp} ({@code https} with TLS); a
   * wildcard bind gives the loopback address. Clients elsewhere use a {@linkplain #publicUris()
   * public URL}.
   */
  public URI uri() {
    port(); // started?
    return jetty.uri(config.path());
  }

  /**
   * The URLs this endpoint can be reached by without a configured name: the public URLs when some
   * were configured; else, bound to every interface, one per interface address (loopback ones
   * last); else {@link #uri()}.
   */
  public List<URI> reachableUris() {
    port(); // started?
    return config.publicUrls().isEmpty() ? jetty.reachableUris(config.path()) : publicUris();
  }

  /** The public URLs clients use to reach the endpoint, as configured; empty when none were. */
  public List<URI> publicUris() {
    return List.copyOf(config.publicUrls());
  }

  /**
   * Whether requests can be authorized now: always without OAuth; with OAuth, once the issuer's
   * keys have been fetched (until then every token is refused with 401, and the fetch is retried in
   * the background).
   */
  public boolean authReady() {
    IssuerKeys keys = issuerKeys;
    return keys == null || keys.ready();
  }

  /**
   * Why requests cannot be authorized yet (such as an unreachable issuer), or empty when they can.
   */
  public Optional<String> authProblem() {
    IssuerKeys keys = issuerKeys;
    return Optional.ofNullable(keys == null ? null : keys.problem());
  }

  /**
   * The URL of the OAuth Protected Resource Metadata (RFC 9728) that 401 challenges name, or empty
   * without OAuth.
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

  /**
   * The {@linkplain HttpTransportBuilder#admin admin listener}'s base URL, such as
   * {@code http://127.0.0.1:9464} (a wildcard bind gives the loopback address), or empty without
   * one.
   *
   * @throws IllegalStateException when not started
   */
  public Optional<URI> adminUri() {
    port(); // started?
    return Optional.ofNullable(jetty.adminUri());
  }

  /**
   * How many legacy sessions are open now: Streamable HTTP ones and those of the old HTTP+SSE
   * transport.
   */
  public int sessionCount() {
    int n = sessions.size() + sse.size();
    for (ServedEndpoint e : further) {
      n += e.sessions.size();
    }
    return n;
  }

  /**
   * How many SSE response streams are open now: legacy GET streams, modern listen streams and
   * streamed answers.
   */
  public int openStreams() {
    return telemetry.openStreams();
  }

  /**
   * The names of the {@linkplain HttpTransportBuilder#readinessCheck readiness checks} that fail
   * now, in the order they were added, then {@code "oauth issuer keys fetched"} while OAuth is on
   * and no access token can be checked yet, after {@code "server running"} while not started or
   * once closing; empty when the server is ready. {@code /readyz} answers 503 with these names
   * while any fails.
   */
  public List<String> notReady() {
    List<String> failing = telemetry.notReady();
    if (!started || closed) {
      failing.addFirst("server running");
    }
    return failing;
  }

  /** How many sweeps of idle legacy sessions have finished; for tests. */
  long sessionSweeps() {
    return sessions.sweeps();
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
   * Stops gracefully: new requests get 503, open streams end cleanly (a modern
   * {@code subscriptions/listen} with its final response), in-flight requests finish within the
   * shutdown timeout, then the port is released. Idempotent.
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
      further.forEach(ServedEndpoint::closeSessions);
      if (!handler.drain(config.shutdownTimeout(), () -> {
        modern.closeAll();
        further.forEach(e -> e.modern.closeAll());
        sse.closeAll();
      })) {
        LOG.log(
            Level.WARNING,
            "some HTTP requests did not finish within {0}",
            config.shutdownTimeout());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      modern.close();
      further.forEach(e -> e.modern.close());
      if (issuerKeys != null) {
        issuerKeys.close();
      }
      try {
        jetty.stop();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "the HTTP server did not stop cleanly", e);
      }
      stopped.countDown();
    }
  }

  /**
   * Blocks until this transport has been closed and has released its port: serves until another
   * thread or a shutdown hook ({@code Runtime.addShutdownHook(new Thread(http::close))}) closes it.
   *
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public void await() throws InterruptedException {
    stopped.await();
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
