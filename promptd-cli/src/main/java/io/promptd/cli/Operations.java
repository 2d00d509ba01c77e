package io.promptd.cli;

import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * What {@code serve --http} offers operators: Prometheus metrics and health probes on the admin
 * port (the transport's admin listener, with {@code /metrics} mounted on it), and the access log.
 * The transport reports each finished request once; this turns it into metrics and a log line.
 */
final class Operations implements AutoCloseable {
  private final OpsOptions options;
  private final @Nullable Metrics metrics;
  private final @Nullable AccessLog accessLog;
  private final Runnable stopForwarding;
  private @Nullable HttpTransport http;

  private Operations(
      OpsOptions options,
      @Nullable Metrics metrics,
      @Nullable AccessLog accessLog,
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
  static Operations create(OpsOptions options, McpServer server, Library library, PromptUsage usage)
      throws IOException {
    Metrics metrics = options.admin() ? new Metrics(server, library) : null;
    if (metrics != null) {
      usage.metrics(metrics.usage());
    }
    Runnable stop = () -> {};
    if (metrics != null) {
      // The library reports what goes wrong while reloading (a file that does not parse) as
      // warnings.
      stop = StderrLogs.forward("io.promptd.library", (level, message) -> {
        if (level.getSeverity() >= System.Logger.Level.WARNING.getSeverity()) {
          metrics.reloadError();
        }
      });
    }
    String log = options.accessLog();
    return new Operations(options, metrics, log == null ? null : AccessLog.open(log), stop);
  }

  /**
   * Subscribes the metrics and the access log to the transport's request events, and adds the admin
   * port with {@code /metrics} when asked for.
   */
  void configure(HttpTransportBuilder http) {
    Metrics m = metrics;
    if (m != null) {
      http.onRequest(m::record);
    }
    if (options.admin()) {
      http.admin(options.adminHost(), options.adminPort());
      if (m != null) {
        http.adminMount("/metrics", m::serve);
      }
    }
    AccessLog log = accessLog;
    if (log != null) {
      http.onRequest(log::record);
    }
  }

  /** Adds the started transport's gauges to the metrics. */
  void start(HttpTransport http) {
    this.http = http;
    Metrics m = metrics;
    if (m != null) {
      m.watch(http);
    }
  }

  /** The admin port's base URL, or null when there is none. */
  @Nullable
  URI adminUri() {
    HttpTransport h = http;
    return h == null ? null : h.adminUri().orElse(null);
  }

  /** Writes out the access log (the admin port closes with the transport). */
  @Override
  public void close() {
    stopForwarding.run();
    AccessLog log = accessLog;
    if (log != null) {
      log.close();
    }
  }
}
