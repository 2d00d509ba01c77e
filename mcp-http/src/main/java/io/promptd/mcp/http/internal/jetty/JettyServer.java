package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.auth.Loopback;
import io.promptd.mcp.http.internal.auth.TrustedProxies;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;

/**
 * The embedded Jetty under an {@code HttpTransport}: virtual threads, the MCP connector (plain or
 * TLS, with the forwarded headers believed only when asked) and optionally the admin connector
 * (plain HTTP, its own address), error pages without stacks or versions; and the URLs its bound
 * ports answer on.
 */
public final class JettyServer {
  /**
   * The buffer each connection reads its requests into. Jetty keeps it until the request's answer
   * completes, so an open event stream (a legacy GET stream, {@code subscriptions/listen}) holds it
   * for as long as it lasts: 2 KiB rather than Jetty's 8 KiB (a request that does not fit, headers
   * or body, is read in more than one go). {@code benchmarks/idle-streams.sh} measures what it
   * saves per idle stream (docs/engineering/performance.md).
   */
  static final int INPUT_BUFFER = 2048;

  /**
   * Jetty's buffer pool with sizes in steps of 1 KiB: its default steps by 4 KiB, which would give
   * the 2 KiB input buffer 4 KiB. Up to 64 KiB, as the default; how much it keeps is Jetty's
   * default.
   */
  private static ArrayByteBufferPool buffers() {
    return new ArrayByteBufferPool(0, 1024, 64 * 1024, -1, -1, -1);
  }

  private final Server jetty;
  private final ServerConnector connector;
  private final @Nullable ServerConnector admin;
  private final String host;
  private final @Nullable TlsFiles tls;
  private final HeadDeadline deadline;

  /**
   * What bounds the connections of both listeners, and whom to believe about clients.
   *
   * @param deadline closes connections whose request head is late
   * @param perAddress the most open connections from one client address (one budget per listener)
   * @param max the most open connections of the MCP listener, for everyone together
   * @param proxies the proxies whose forwarding headers are believed, or null for none
   */
  public record Connections(
      HeadDeadline deadline,
      int perAddress,
      int max,
      @Nullable TrustedProxies proxies) {}

  /**
   * @param host the address to bind
   * @param port the port to bind; 0 for any
   * @param handler what serves every request
   * @param idleTimeout how long an idle connection stays open
   * @param requestHeaderSize the largest request head accepted, or 0 for Jetty's default
   * @param connections the limits on connections, and the proxies whose forwarding headers are
   *     believed
   * @param tls the certificate to serve HTTPS with, or null for plain HTTP
   * @param acceptedSendBufferSize the socket send buffer of accepted connections, or 0 or less for
   *     the system's
   * @param adminListener the admin listener's address, or null for none; its connector is named
   *     {@link JettyHandler#ADMIN_CONNECTOR}
   */
  public JettyServer(
      String host,
      int port,
      Handler handler,
      Duration idleTimeout,
      int requestHeaderSize,
      Connections connections,
      @Nullable TlsFiles tls,
      int acceptedSendBufferSize,
      @Nullable AdminListener adminListener) {
    this.host = host;
    this.tls = tls;
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("promptd-jetty");
    threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
    this.jetty = new Server(threads, null, buffers());
    HttpConfiguration http = new HttpConfiguration();
    if (requestHeaderSize > 0) {
      http.setRequestHeaderSize(requestHeaderSize);
    }
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    // No per-connection header cache: Jetty builds one (~100 KiB) on each connection's second
    // request, and a legacy session's connection is kept open with its GET stream, so each held it
    // for as long as the stream lasted.
    http.setHeaderCacheSize(0);
    TrustedProxies proxies = connections.proxies();
    if (proxies != null) {
      // X-Forwarded-Proto/Host/For from a trusted proxy become the request's scheme, authority and
      // client.
      http.addCustomizer(new ForwardedHeaders(proxies));
    }
    this.deadline = connections.deadline();
    HttpConnectionFactory mcpHttp = limited(new HttpConnectionFactory(http), connections);
    mcpHttp.setInputBufferSize(INPUT_BUFFER);
    if (tls != null) {
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(
          false); // the Host check is the guard's, for every name the certificate may carry
      http.addCustomizer(secure);
      this.connector = new ServerConnector(
          jetty,
          1,
          1,
          new SslConnectionFactory(tls.factory(), HttpVersion.HTTP_1_1.asString()),
          mcpHttp);
    } else {
      this.connector = new ServerConnector(jetty, 1, 1, mcpHttp);
    }
    connector.setHost(host);
    connector.setPort(port);
    if (acceptedSendBufferSize > 0) {
      connector.setAcceptedSendBufferSize(acceptedSendBufferSize);
    }
    connector.setIdleTimeout(idleTimeout.toMillis());
    jetty.addConnector(connector);
    // At the limit the listener stops accepting: new connections wait in the system's queue while
    // the open ones are served. The admin listener is left out, so that its probes still answer.
    jetty.addBean(new NetworkConnectionLimit(connections.max(), connector));
    if (adminListener != null) {
      HttpConfiguration plain = new HttpConfiguration();
      plain.setSendServerVersion(false);
      plain.setSendXPoweredBy(false);
      this.admin =
          new ServerConnector(jetty, 1, 1, limited(new HttpConnectionFactory(plain), connections));
      admin.setName(JettyHandler.ADMIN_CONNECTOR);
      admin.setHost(adminListener.host());
      admin.setPort(adminListener.port());
      admin.setIdleTimeout(idleTimeout.toMillis());
      jetty.addConnector(admin);
    } else {
      this.admin = null;
    }
    jetty.setHandler(handler);
    ErrorHandler errors = new ErrorHandler();
    errors.setShowStacks(false);
    errors.setShowCauses(false);
    errors.setShowMessageInTitle(false);
    jetty.setErrorHandler(errors);
  }

  /**
   * Watches the HTTP connections {@code factory} makes: the head deadline, and the per-address
   * limit (only the HTTP connections, not TLS's beneath them, so that each socket counts once and a
   * stream is never cut).
   */
  private static HttpConnectionFactory limited(
      HttpConnectionFactory factory, Connections connections) {
    factory.addEventListener(connections.deadline());
    factory.addEventListener(new AddressLimit(connections.perAddress(), connections.proxies()));
    return factory;
  }

  /** Binds the port and starts; renewed TLS files are picked up from now on. */
  public void start() throws Exception {
    deadline.start();
    jetty.start();
    if (tls != null) {
      tls.watch();
    }
  }

  /** Stops serving and releases the port. */
  public void stop() throws Exception {
    if (tls != null) {
      tls.close();
    }
    try {
      jetty.stop();
    } finally {
      deadline.stop();
    }
  }

  /** How many times the TLS files were looked at for a renewal; 0 without TLS. For tests. */
  public int tlsLooks() {
    return tls == null ? 0 : tls.looks();
  }

  public int localPort() {
    return connector.getLocalPort();
  }

  /** The local URI of {@code path}; a wildcard bind gives the loopback address. */
  public URI uri(String path) {
    String h = host.contains(":") ? "[" + host + "]" : host;
    if (h.equals("0.0.0.0") || h.equals("[::]")) {
      h = "127.0.0.1";
    }
    return URI.create(scheme() + "://" + h + ":" + localPort() + path);
  }

  /**
   * The admin listener's base URI by the address it bound, such as {@code http://127.0.0.1:9464} (a
   * wildcard bind gives the loopback address), or null without one.
   */
  @Nullable
  public URI adminUri() {
    ServerConnector a = admin;
    if (a == null) {
      return null;
    }
    String h;
    try {
      InetAddress address = InetAddress.getByName(a.getHost());
      h = address.isAnyLocalAddress() ? "127.0.0.1" : address.getHostAddress();
    } catch (UnknownHostException e) {
      h = String.valueOf(a.getHost()); // it was bound, so it resolved: not expected
    }
    return URI.create("http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + a.getLocalPort());
  }

  /**
   * The URIs of {@code path} without a configured name: bound to every interface, one per interface
   * address (loopback ones last); else {@link #uri}.
   */
  public List<URI> reachableUris(String path) {
    if (!Guard.wildcard(host)) {
      return List.of(uri(path));
    }
    List<URI> out = new ArrayList<>();
    List<URI> loopback = new ArrayList<>();
    for (String address : Guard.interfaceAddresses()) {
      if (address.contains("%")) {
        continue; // link-local with a zone: not something to paste into a client
      }
      String h = address.contains(":") ? "[" + address + "]" : address;
      URI u = URI.create(scheme() + "://" + h + ":" + localPort() + path);
      (Loopback.isLoopback(address) ? loopback : out).add(u);
    }
    out.addAll(loopback);
    return out.isEmpty() ? List.of(uri(path)) : out;
  }

  private String scheme() {
    return tls != null ? "https" : "http";
  }
}
