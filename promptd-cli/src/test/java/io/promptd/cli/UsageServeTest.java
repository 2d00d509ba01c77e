package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreUrl;
import io.promptd.store.UsageReport;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage per version through a real {@code serve --store --http --admin-port} process and a real
 * PostgreSQL: the counts in {@code /metrics} and in {@code prompt_usage} equal the requests made; a
 * database outage during use answers every request and reports what it dropped; {@code promptd
 * usage} prints the table.
 */
@Tag("system") // starts a real PostgreSQL
@Timeout(240)
class UsageServeTest {
  private static final String HELLO =
      "---\narguments:\n  - name: name\n    required: true\n---\nHello {{name}}\n";
  private static final String BYE = "Bye\n";

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void usesAreCountedPerVersionAndAnOutageLosesCountsNotRequests() throws Exception {
    TestPostgres pg = TestPostgres.get();
    String url = pg.newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), HELLO);
    Files.writeString(dir.resolve("bye.prompt.md"), BYE);
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();
    String hello = digest(HELLO);
    String bye = digest(BYE);

    List<String> serve = StoreCliTest.java();
    // A bound of 4 rows, written every 300 ms: the outage below fills it.
    serve.addAll(1, List.of("-Dpromptd.usage.rows=4", "-Dpromptd.usage.every-ms=300"));
    serve.addAll(List.of("serve", "--store", url, "--http", "0", "--admin-port", "0"));
    Process server = new ProcessBuilder(serve)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
    try (StoreDatabase database = StoreDatabase.open(StoreUrl.parse(url))) {
      Matcher a = Pattern.compile("admin port on (http://\\S+) ")
          .matcher(CliProcessTest.awaitLine(err, "admin port on"));
      assertThat(a.find()).isTrue();
      URI metrics = URI.create(a.group(1) + "/metrics");
      Matcher m = Pattern.compile(" on (http://\\S+/mcp)")
          .matcher(CliProcessTest.awaitLine(err, "serving"));
      assertThat(m.find()).isTrue();
      URI mcp = URI.create(m.group(1));

      for (int i = 0; i < 5; i++) {
        assertThat(get(mcp, "hello", "{\"name\":\"Ada\"}", "1.0")).contains("Hello Ada");
      }
      for (int i = 0; i < 2; i++) { // the required argument missing, no form: -32602
        assertThat(get(mcp, "hello", "{}", "1.0")).contains("-32602");
      }
      for (int i = 0; i < 3; i++) {
        assertThat(get(mcp, "bye", "{}", "1.0")).contains("Bye");
      }
      String uses = "promptd_prompt_uses_total{client=ops,label=latest,outcome=";
      Map<String, Double> scraped = scrape(metrics);
      assertThat(scraped)
          .containsEntry(uses + "rendered,prompt=hello,version=" + hello + "}", 5.0)
          .containsEntry(uses + "refused,prompt=hello,version=" + hello + "}", 2.0)
          .containsEntry(uses + "rendered,prompt=bye,version=" + bye + "}", 3.0)
          .containsEntry(
              "promptd_prompt_use_duration_seconds_count{label=latest,prompt=hello,version=" + hello
                  + "}",
              7.0);
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> "7 uses of hello written",
          () -> uses(database, "hello") == 7 && uses(database, "bye") == 3);
      UsageReport.Row row = UsageReport.read(database, Instant.EPOCH, "hello").getFirst();
      assertThat(row.byOutcome()).isEqualTo(Map.of("rendered", 5L, "refused", 2L));
      assertThat(row.storeVersions()).containsExactly(1);

      Result table = StoreCliTest.run(List.of("usage", "--store", url, "--since", "1h"));
      assertThat(table.status()).as(table.err()).isZero();
      assertThat(table.out().lines().toList())
          .containsExactly(
              "PROMPT\tVERSION\tSTORE_VERSION\tLABEL\tUSES\tRENDERED\tREFUSED\tFORM_ASKED"
                  + "\tFORM_DECLINED\tERROR\tMEAN_MS",
              "bye\t" + bye + "\t1\tlatest\t3\t3\t0\t0\t0\t0\t" + mean(database, "bye"),
              "hello\t" + hello + "\t1\tlatest\t7\t5\t2\t0\t0\t0\t" + mean(database, "hello"));

      // The database goes away: ten uses, each from another client version (a row each); four
      // rows fit.
      pg.stop();
      try {
        for (int i = 1; i <= 10; i++) {
          assertThat(get(mcp, "hello", "{\"name\":\"Bob\"}", "2." + i)).contains("Hello Bob");
        }
        CliProcessTest.awaitLine(err, "usage counts cannot be written to the store");
        Poll.until(
            Duration.ofSeconds(30),
            Duration.ofMillis(100),
            () -> "6 uses dropped",
            () -> scrape(metrics).getOrDefault("promptd_usage_dropped_total", 0.0) >= 6);
        assertThat(scrape(metrics))
            .containsEntry(uses + "rendered,prompt=hello,version=" + hello + "}", 15.0);
      } finally {
        pg.start();
      }
      String back = CliProcessTest.awaitLine(err, "usage counts written to the store");
      double dropped = scrape(metrics).get("promptd_usage_dropped_total");
      assertThat(back)
          .contains("again; " + (long) dropped + " use(s) were dropped while it was away");
      // What was written and what was dropped add up to the requests made.
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> "the kept uses written",
          () -> uses(database, "hello") + dropped == 17);
    } finally {
      server.destroy();
    }
    assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
  }

  private static long uses(StoreDatabase database, String prompt) throws Exception {
    return UsageReport.read(database, Instant.EPOCH, prompt).stream()
        .mapToLong(UsageReport.Row::uses)
        .sum();
  }

  private static String mean(StoreDatabase database, String prompt) throws Exception {
    return String.format(
        Locale.ROOT,
        "%.1f",
        UsageReport.read(database, Instant.EPOCH, prompt).getFirst().meanMillis());
  }

  private static String digest(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)))
        .substring(0, 12);
  }

  /**
   * A 2026-07-28 {@code prompts/get} from client {@code ops} at {@code clientVersion}; the answer's
   * body.
   */
  private String get(URI mcp, String name, String arguments, String clientVersion)
      throws Exception {
    return promptsGet(http, mcp, null, name, arguments, clientVersion);
  }

  /**
   * A 2026-07-28 {@code prompts/get} from client {@code ops} (reported as {@code OPS}) at
   * {@code clientVersion}, with {@code token} as its bearer token when not null; the answer's body.
   */
  static String promptsGet(
      HttpClient http,
      URI mcp,
      @Nullable String token,
      String name,
      String arguments,
      String clientVersion)
      throws Exception {
    String body = OperationsProcessTest.request(
        1,
        "prompts/get",
        "{\"name\":\"" + name + "\",\"arguments\":" + arguments
            + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"OPS\",\"version\":\""
            + clientVersion + "\"}}}");
    HttpRequest.Builder b = HttpRequest.newBuilder(mcp)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    String[] headers = OperationsProcessTest.modernHeaders("prompts/get", name);
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(
            b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private Map<String, Double> scrape(URI metrics) throws Exception {
    return OperationsProcessTest.parse(http.send(
            HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(20)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body());
  }
}
