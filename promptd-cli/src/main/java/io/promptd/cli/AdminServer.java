package io.promptd.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The admin port: {@code /metrics} (Prometheus text format), {@code /healthz} and {@code /readyz}, on the JDK's own
 * HTTP server, apart from the MCP port so that metrics are never public by accident. It binds 127.0.0.1 unless told
 * otherwise; on a loopback address it also refuses {@code Host} headers that are not loopback names, so that a web
 * page cannot read it through DNS rebinding.
 */
final class AdminServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.cli");
  private static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final HttpServer server;
  private final ExecutorService threads;
  private final @Nullable Metrics metrics;
  private final Supplier<List<String>> notReady;
  private final boolean loopbackOnly;

  private AdminServer(HttpServer server, ExecutorService threads, @Nullable Metrics metrics,
      Supplier<List<String>> notReady, boolean loopbackOnly) {
    this.server = server;
    this.threads = threads;
    this.metrics = metrics;
    this.notReady = notReady;
    this.loopbackOnly = loopbackOnly;
  }

  /**
   * Binds {@code host:port} (port 0: any free one) and starts serving.
   *
   * @param metrics what {@code /metrics} serves, or null for no {@code /metrics}
   * @param notReady the names of the readiness checks failing now
   * @throws IOException when the address cannot be bound
   */
  static AdminServer start(String host, int port, @Nullable Metrics metrics, Supplier<List<String>> notReady)
      throws IOException {
    InetAddress address = InetAddress.getByName(host);
    HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 64);
    ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("promptd-admin-", 0)
        .factory());
    AdminServer admin = new AdminServer(server, threads, metrics, notReady, address.isLoopbackAddress());
    server.createContext("/", admin::handle);
    server.setExecutor(threads);
    server.start();
    return admin;
  }

  /** The bound port. */
  int port() {
    return server.getAddress().getPort();
  }

  /** The admin base URL, such as {@code http://127.0.0.1:9464}. */
  URI uri() {
    InetAddress a = server.getAddress().getAddress();
    String host = a.isAnyLocalAddress() ? "127.0.0.1" : a.getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port());
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      if (loopbackOnly && !loopbackHost(ex.getRequestHeaders().getFirst("Host"))) {
        send(ex, 403, "text/plain", "Forbidden: Host header not allowed\n");
      } else if (!ex.getRequestMethod().equals("GET")) {
        ex.getResponseHeaders().set("Allow", "GET");
        send(ex, 405, "text/plain", "Method Not Allowed: use GET\n");
      } else if (path.equals("/metrics") && metrics != null) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
        metrics.write(body);
        send(ex, 200, metrics.contentType(), body.toByteArray());
      } else if (path.equals("/healthz")) {
        send(ex, 200, "application/json", "{\"status\":\"alive\"}");
      } else if (path.equals("/readyz")) {
        List<String> failing = notReady.get();
        JsonObject.Builder body = JsonObject.builder().put("status", failing.isEmpty() ? "ready" : "not ready");
        if (!failing.isEmpty()) {
          body.put("failing", new JsonArray(failing.stream().<Json>map(Json::of).toList()));
        }
        send(ex, failing.isEmpty() ? 200 : 503, "application/json", JsonCodec.write(body.build()));
      } else {
        send(ex, 404, "text/plain", "Not Found: the admin port serves /metrics, /healthz and /readyz\n");
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, "admin request failed: " + e);
      throw e;
    }
  }

  private static boolean loopbackHost(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.trim().toLowerCase(Locale.ROOT);
    int colon = h.lastIndexOf(':');
    if (colon > h.lastIndexOf(']')) {
      h = h.substring(0, colon);
    }
    return LOOPBACK_NAMES.contains(h);
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  /** Stops serving and releases the port. */
  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
