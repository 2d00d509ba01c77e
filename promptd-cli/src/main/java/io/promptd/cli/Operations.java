package io.promptd.cli;

import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * What {@code serve --http} offers operators: Prometheus metrics and health probes on the admin port, and the access
 * log. The transport reports each finished request once; this turns it into metrics and a log line.
 */
final class Operations implements AutoCloseable {
  private final OpsOptions options;
  private final @Nullable Metrics metrics;
  private final @Nullable AccessLog accessLog;
  private final Runnable stopForwarding;
  private @Nullable AdminServer admin;

  private Operations(OpsOptions options, @Nullable Metrics metrics, @Nullable AccessLog accessLog,
      Runnable stopForwarding) {
    this.options = options;
    this.metrics = metrics;
    this.accessLog = accessLog;
    this.stopForwarding = stopForwarding;
  }

  /**
   * Prepares the metrics (only with an admin port) and opens the access log (when asked for).
   *
   * @throws IOException when the access log file cannot be opened
   */
  static Operations create(OpsOptions options, McpServer server, Library library) throws IOException {
    Metrics metrics = options.admin() ? new Metrics(server, library) : null;
    Runnable stop = () -> { };
    if (metrics != null) {
      // The library reports what goes wrong while reloading (a file that does not parse) as warnings.
      stop = StderrLogs.forward("io.promptd.library", (level, message) -> {
        if (level.getSeverity() >= System.Logger.Level.WARNING.getSeverity()) {
          metrics.reloadError();
        }
      });
    }
    String log = options.accessLog();
    return new Operations(options, metrics, log == null ? null : AccessLog.open(log), stop);
  }

  /** Subscribes the metrics and the access log to the transport's request events. */
  void configure(HttpTransportBuilder http) {
    Metrics m = metrics;
    if (m != null) {
      http.onRequest(m::record);
    }
    AccessLog log = accessLog;
    if (log != null) {
      http.onRequest(log::record);
    }
  }

  /**
   * Starts the admin port for a started transport.
   *
   * @throws IOException when the admin port cannot be bound
   */
  void start(HttpTransport http) throws IOException {
    Metrics m = metrics;
    if (m != null) {
      m.watch(http);
    }
    if (options.admin()) {
      admin = AdminServer.start(options.adminHost(), options.adminPort(), m, http::notReady);
    }
  }

  /** The admin port's base URL, or null when there is none. */
  @Nullable URI adminUri() {
    AdminServer a = admin;
    return a == null ? null : a.uri();
  }

  /** Stops the admin port and writes out the access log. */
  @Override
  public void close() {
    stopForwarding.run();
    AdminServer a = admin;
    if (a != null) {
      a.close();
    }
    AccessLog log = accessLog;
    if (log != null) {
      log.close();
    }
  }
}
