package io.promptd.cli;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.ServedMethod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * promptd's Prometheus metrics, all named {@code promptd_*}, made from the transport's request
 * events and gauges and from the library. Labels stay bounded: {@code method} is a known MCP method
 * name (or {@code GET}/{@code DELETE} for the legacy stream and session end), else {@code other};
 * {@code prompt} counts only prompts the server actually served, so it is bounded by the library.
 */
final class Metrics {
  /**
   * The MCP methods the server takes (its method table's rows: requests of both eras and the
   * client's notifications); anything else is counted as {@code other}.
   */
  private final Set<String> methods;

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter requests = Counter.builder()
      .name("promptd_requests_total")
      .help(
          "MCP HTTP requests by method, era and outcome (ok, error, cancelled, refused_4xx, refused_5xx)")
      .labelNames("method", "era", "outcome")
      .register(registry);
  private final Histogram latency = Histogram.builder()
      .name("promptd_request_duration_seconds")
      .help(
          "Time from arrival to the last byte of the answer; streams (listen, legacy GET) are left out")
      .labelNames("method", "era")
      .classicOnly()
      .classicUpperBounds(
          0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
      .register(registry);
  private final Counter promptGets = Counter.builder()
      .name("promptd_prompt_gets_total")
      .help("prompts/get answered with a result, by prompt name")
      .labelNames("prompt")
      .register(registry);
  private final Counter reloadErrors = Counter.builder()
      .name("promptd_library_reload_errors_total")
      .help(
          "Problems the library reported while loading or reloading files (a file that does not parse, ...)")
      .register(registry);

  private final UsageMetrics usage = new UsageMetrics(registry);

  Metrics(McpServer server, Library library) {
    this.methods =
        server.methods().stream().map(ServedMethod::name).collect(Collectors.toUnmodifiableSet());
    // The JVM's and the process's own series: memory, GC, threads, classes, CPU, open file
    // descriptors.
    JvmMetrics.builder().register(registry);
    long loadedVersion = library.version();
    GaugeWithCallback.builder()
        .name("promptd_library_prompts")
        .help("Prompts being served")
        .callback(cb -> cb.call(server.prompts().size()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("promptd_library_resources")
        .help("Resources being served (not templates)")
        .callback(cb -> cb.call(library.resources().size()))
        .register(registry);
    CounterWithCallback.builder()
        .name("promptd_library_reloads_total")
        .help("Reloads that changed what is served (prompts, resources or attached files)")
        .callback(cb -> cb.call((double) Math.max(0, library.version() - loadedVersion)))
        .register(registry);
  }

  /** Adds the transport's gauges: open legacy sessions and open SSE streams. */
  void watch(HttpTransport http) {
    GaugeWithCallback.builder()
        .name("promptd_sessions")
        .help("Open legacy (2025-x) sessions")
        .callback(cb -> cb.call(http.sessionCount()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("promptd_open_streams")
        .help(
            "Open SSE streams: legacy GET streams, 2026-07-28 listen streams and streamed answers")
        .callback(cb -> cb.call(http.openStreams()))
        .register(registry);
  }

  /** Counts one finished request. */
  void record(RequestEvent e) {
    String method = methodLabel(e);
    String era = e.era().name().toLowerCase(Locale.ROOT);
    requests.labelValues(method, era, outcomeLabel(e)).inc();
    if (!method.equals(Methods.SUBSCRIPTIONS_LISTEN) && !method.equals("GET")) {
      latency.labelValues(method, era).observe(e.duration().toNanos() / 1e9);
    }
    String prompt = e.prompt();
    if (prompt != null
        && Methods.PROMPTS_GET.equals(e.method())
        && e.outcome() == RequestEvent.Outcome.OK) {
      promptGets.labelValues(prompt).inc(); // served, so a name from the library: bounded
    }
  }

  /** Usage per version: {@code promptd_prompt_uses_total} and its duration histogram. */
  UsageMetrics usage() {
    return usage;
  }

  /** Counts a problem the library reported. */
  void reloadError() {
    reloadErrors.inc();
  }

  /** Writes every metric in the Prometheus text format (version 0.0.4). */
  void write(OutputStream out) throws IOException {
    writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
  }

  /** Answers a scrape of {@code /metrics} on the admin port: GET only. */
  void serve(MountRequest request, MountResponse response) throws IOException {
    if (!request.method().equals("GET")) {
      response.header("Allow", "GET");
      response.refuse(405, "Method Not Allowed: use GET");
      return;
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
    write(body);
    response.header("Cache-Control", "no-store");
    response.send(200, contentType(), body.toByteArray());
  }

  /** The text format's content type. */
  String contentType() {
    return writer.getContentType();
  }

  String methodLabel(RequestEvent e) {
    String method = e.method();
    if (method != null) {
      return methods.contains(method) ? method : "other";
    }
    return switch (e.httpMethod()) {
      case "GET", "DELETE" -> e.httpMethod();
      default -> "other";
    };
  }

  static String outcomeLabel(RequestEvent e) {
    return switch (e.outcome()) {
      case OK -> "ok";
      case ERROR -> "error";
      case CANCELLED -> "cancelled";
      case REFUSED -> e.status() >= 500 ? "refused_5xx" : "refused_4xx";
    };
  }
}
