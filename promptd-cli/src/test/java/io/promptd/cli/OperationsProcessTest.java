package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --http --admin-port 0 --access-log FILE} as an operator runs it: a real child
 * process, real MCP requests in both eras, {@code /metrics} scraped over HTTP and parsed as the
 * Prometheus text format, the access log parsed as JSON lines that carry no argument values and no
 * token.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OperationsProcessTest {
  private static final Path ROOT =
      Path.of(System.getProperty("promptd.root", "..")).toAbsolutePath().normalize();
  private static final Path FIXTURES = ROOT.resolve("fixtures/conformance");
  private static final String SECRET = "zz-argument-value-7f3c";
  private static final String TOKEN = "tok-operations-91ab";
  private static final String MODERN = "2026-07-28";
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void metricsHealthAndAccessLogOfARealServer() throws Exception {
    Path accessLog = dir.resolve("access.jsonl");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName(),
        "serve",
        "--http",
        "0",
        "--token",
        TOKEN,
        "--admin-port",
        "0",
        "--access-log",
        accessLog.toString(),
        "--no-watch",
        FIXTURES.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
    String session;
    try {
      Matcher a = Pattern.compile(
              "admin port on (http://127\\.0\\.0\\.1:\\d+) \\(/metrics, /healthz, /readyz\\)")
          .matcher(CliProcessTest.awaitLine(err, "admin port on"));
      assertThat(a.find()).isTrue();
      URI admin = URI.create(a.group(1));
      Matcher m = Pattern.compile("serving .* on (http://\\S+/mcp) \\(bearer token required\\)")
          .matcher(CliProcessTest.awaitLine(err, "serving"));
      assertThat(m.find()).isTrue();
      URI mcp = URI.create(m.group(1));

      // Legacy: a session, a prompts/get with a distinctive argument value, an unknown prompt.
      HttpResponse<String> init = post(
          mcp,
          request(
              1,
              "initialize",
              "{\"protocolVersion\":\"2025-06-18\","
                  + "\"capabilities\":{},\"clientInfo\":{\"name\":\"ops\",\"version\":\"1\"}}"));
      assertThat(init.statusCode()).isEqualTo(200);
      session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      String[] legacy = {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18"};
      assertThat(post(mcp, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", legacy)
              .statusCode())
          .isEqualTo(202);
      HttpResponse<String> get = post(
          mcp,
          request(
              2,
              "prompts/get",
              "{\"name\":\"test_prompt_with_arguments\"," + "\"arguments\":{\"arg1\":\"" + SECRET
                  + "\",\"arg2\":\"b\"}}"),
          legacy);
      assertThat(get.body()).contains(SECRET); // the answer has it; the log must not
      assertThat(post(mcp, request(3, "prompts/get", "{\"name\":\"test_simple_prompt\"}"), legacy)
              .statusCode())
          .isEqualTo(200);
      // Modern: two gets of the same prompt, and an unknown prompt.
      for (int id = 4; id <= 5; id++) {
        assertThat(post(
                    mcp,
                    modern(
                        id,
                        "prompts/get",
                        "\"name\":\"test_prompt_with_arguments\",\"arguments\":" + "{\"arg1\":\""
                            + SECRET + "\",\"arg2\":\"c\"}"),
                    modernHeaders("prompts/get", "test_prompt_with_arguments"))
                .statusCode())
            .isEqualTo(200);
      }
      assertThat(post(
                  mcp,
                  modern(6, "prompts/get", "\"name\":\"nope\""),
                  modernHeaders("prompts/get", "nope"))
              .statusCode())
          .isEqualTo(200); // a JSON-RPC error, answered with 200 in this era
      // A request without the token is refused; probes need no token.
      assertThat(send(HttpRequest.newBuilder(mcp)
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/json, text/event-stream")
                  .POST(HttpRequest.BodyPublishers.ofString(request(7, "ping", "{}"))))
              .statusCode())
          .isEqualTo(401);
      assertThat(send(HttpRequest.newBuilder(mcp.resolve("/healthz"))).statusCode())
          .isEqualTo(200);
      assertThat(send(HttpRequest.newBuilder(mcp.resolve("/readyz"))).body())
          .isEqualTo("{\"status\":\"ready\"}");
      assertThat(send(HttpRequest.newBuilder(mcp.resolve("/metrics"))).statusCode())
          .as("metrics are never on the MCP port")
          .isEqualTo(404);

      assertThat(send(HttpRequest.newBuilder(admin.resolve("/healthz"))).statusCode())
          .isEqualTo(200);
      assertThat(send(HttpRequest.newBuilder(admin.resolve("/readyz"))).statusCode())
          .isEqualTo(200);
      HttpResponse<String> scrape = send(HttpRequest.newBuilder(admin.resolve("/metrics")));
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type").orElse(""))
          .startsWith("text/plain; version=0.0.4");
      assertThat(scrape.body()).doesNotContain(SECRET).doesNotContain(TOKEN);
      Map<String, Double> metrics = parse(scrape.body());
      assertThat(metrics)
          .containsEntry("promptd_requests_total{era=legacy,method=initialize,outcome=ok}", 1.0)
          .containsEntry(
              "promptd_requests_total{era=legacy,method=notifications/initialized,outcome=ok}", 1.0)
          .containsEntry("promptd_requests_total{era=legacy,method=prompts/get,outcome=ok}", 2.0)
          .containsEntry("promptd_requests_total{era=modern,method=prompts/get,outcome=ok}", 2.0)
          .containsEntry("promptd_requests_total{era=modern,method=prompts/get,outcome=error}", 1.0)
          .containsEntry("promptd_requests_total{era=none,method=other,outcome=refused_4xx}", 1.0)
          .containsEntry("promptd_prompt_gets_total{prompt=test_prompt_with_arguments}", 3.0)
          .containsEntry("promptd_prompt_gets_total{prompt=test_simple_prompt}", 1.0)
          .doesNotContainKey("promptd_prompt_gets_total{prompt=nope}")
          .containsEntry(
              "promptd_request_duration_seconds_count{era=modern,method=prompts/get}", 3.0)
          .containsEntry(
              "promptd_request_duration_seconds_bucket{era=modern,le=+Inf,method=prompts/get}", 3.0)
          .containsEntry("promptd_sessions", 1.0)
          .containsEntry("promptd_open_streams", 0.0)
          .containsEntry("promptd_library_prompts", 4.0)
          .containsEntry("promptd_library_reloads_total", 0.0)
          .containsEntry("promptd_library_reload_errors_total", 0.0)
          .containsKey("promptd_library_resources");
      // The metric reference in docs/http.md names every family this server exposes.
      Matcher family = Pattern.compile("(?m)^# TYPE (promptd_\\w+) ").matcher(scrape.body());
      List<String> families = new ArrayList<>();
      while (family.find()) {
        families.add(family.group(1));
      }
      assertThat(families).isNotEmpty();
      String docText = Files.readString(DocLines.DOCS.resolve("http.md"), UTF_8);
      for (String name : families) {
        assertThat(docText)
            .as("docs/http.md's metrics table names " + name)
            .contains("`" + name + "`");
      }
      assertThat(scrape.body())
          .contains("# TYPE promptd_requests_total counter")
          .contains("# TYPE promptd_request_duration_seconds histogram")
          .contains("# TYPE promptd_sessions gauge");
      assertThat(post(admin.resolve("/metrics"), "{}").statusCode()).isEqualTo(405);
    } finally {
      server.destroy(); // SIGTERM: graceful stop, which writes out the access log
    }
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();

    List<String> lines = Files.readAllLines(accessLog, UTF_8);
    assertThat(lines)
        .as("8 MCP requests and the GET /metrics refused with 404; probes are not logged")
        .hasSize(9);
    String all = String.join("\n", lines);
    assertThat(all).doesNotContain(SECRET).doesNotContain(TOKEN).doesNotContain(session);
    List<JsonObject> entries =
        lines.stream().map(l -> (JsonObject) JsonCodec.parse(l)).toList();
    for (JsonObject e : entries) {
      assertThat(e.members().keySet())
          .containsExactly(
              "time",
              "era",
              "http",
              "method",
              "prompt",
              "outcome",
              "status",
              "error",
              "duration_ms",
              "subject",
              "transport");
      assertThat(e.string("time").orElseThrow())
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    }
    List<String> written = entries.stream().map(JsonCodec::write).toList();
    assertThat(written)
        .anySatisfy(e -> assertThat(e)
            .contains("\"era\":\"legacy\",\"http\":\"POST\","
                + "\"method\":\"prompts/get\",\"prompt\":\"test_prompt_with_arguments\",\"outcome\":\"ok\",\"status\":200,"
                + "\"error\":null,")
            .endsWith(",\"subject\":null,\"transport\":\"streamable-http\"}"));
    assertThat(written)
        .anySatisfy(
            e -> assertThat(e)
                .contains(
                    "\"era\":\"modern\",\"http\":\"POST\","
                        + "\"method\":\"prompts/get\",\"prompt\":\"nope\",\"outcome\":\"error\",\"status\":200,\"error\":-32602,"));
    assertThat(written)
        .anySatisfy(e -> assertThat(e).contains("\"outcome\":\"refused\",\"status\":401,"));
    assertThat(written)
        .anySatisfy(e -> assertThat(e)
            .contains("\"http\":\"GET\",\"method\":null,"
                + "\"prompt\":null,\"outcome\":\"refused\",\"status\":404,"));
  }

  @Test
  void reloadsAndReloadErrorsAreCounted() throws Exception {
    Path prompts = Files.createDirectories(dir.resolve("prompts"));
    Files.writeString(prompts.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName(),
        "serve",
        "--http",
        "0",
        "--admin-port",
        "0",
        prompts.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
    try {
      Matcher a = Pattern.compile("admin port on (http://\\S+) ")
          .matcher(CliProcessTest.awaitLine(err, "admin port on"));
      assertThat(a.find()).isTrue();
      URI metrics = URI.create(a.group(1)).resolve("/metrics");
      CliProcessTest.awaitLine(err, "serving");
      assertThat(parse(send(HttpRequest.newBuilder(metrics)).body()))
          .containsEntry("promptd_library_prompts", 1.0)
          .containsEntry("promptd_library_reloads_total", 0.0)
          .containsEntry("promptd_library_reload_errors_total", 0.0);
      Files.writeString(prompts.resolve("more.prompt.md"), "---\ndescription: more\n---\nHi\n");
      awaitMetric(metrics, "promptd_library_prompts", 2.0);
      assertThat(parse(send(HttpRequest.newBuilder(metrics)).body())
              .get("promptd_library_reloads_total"))
          .isGreaterThanOrEqualTo(1.0);
      Files.writeString(
          prompts.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHello\n");
      awaitMetric(metrics, "promptd_library_reload_errors_total", 1.0);
    } finally {
      server.destroy();
    }
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  /**
   * Scrapes until {@code name} reaches {@code value} (hot reload waits for a quiet period first).
   */
  private void awaitMetric(URI metrics, String name, double value) throws Exception {
    Double[] last = {null};
    Poll.until(
        Duration.ofSeconds(60),
        Duration.ofMillis(100),
        () -> name + " stayed at " + last[0] + ", expected " + value,
        () -> {
          last[0] = parse(send(HttpRequest.newBuilder(metrics)).body()).get(name);
          return last[0] != null && last[0] >= value;
        });
  }

  /**
   * Each sample as {@code name{label=value,...}} (labels sorted, unescaped) to its value; comments
   * skipped.
   */
  static Map<String, Double> parse(String text) {
    Map<String, Double> samples = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      assertThat(m.matches()).as("a Prometheus sample line: " + line).isTrue();
      StringBuilder key = new StringBuilder(m.group(1));
      if (m.group(3) != null) {
        Map<String, String> labels = new TreeMap<>();
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.put(
              l.group(1),
              l.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
        }
        key.append('{');
        labels.forEach((k, v) -> key.append(key.charAt(key.length() - 1) == '{' ? "" : ",")
            .append(k)
            .append('=')
            .append(v));
        key.append('}');
      }
      samples.put(key.toString(), Double.parseDouble(m.group(4)));
    }
    return samples;
  }

  private HttpResponse<String> post(URI uri, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return send(b);
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return client.send(
        b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static String request(long id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":"
        + params + "}";
  }

  static String modern(long id, String method, String members) {
    return request(
        id,
        method,
        "{" + members + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MODERN
            + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ops\",\"version\":\"1\"}}}");
  }

  static String[] modernHeaders(String method, String name) {
    return new String[] {"MCP-Protocol-Version", MODERN, "Mcp-Method", method, "Mcp-Name", name};
  }
}
