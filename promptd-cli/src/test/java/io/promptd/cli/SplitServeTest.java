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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A/B splits end to end: {@code promptd label split} on a real PostgreSQL, a real {@code serve
 * --store --label --http} process behind real OAuth (mock-oauth2-server): 2,000 subjects get the
 * split's versions within five points of its weights, each subject keeps its version, every use is
 * written to the store under the version served, and a plain move ends the split. The command's
 * mistakes exit 2 and write nothing.
 */
@Tag("system") // starts a real PostgreSQL
@Timeout(300)
class SplitServeTest {
  private static final String AUDIENCE = "promptd-split-test";
  private static final String V1 = "Review, variant A\n";
  private static final String V2 = "---\ndescription: the risky change\n---\nReview, variant B\n";
  private static final int SUBJECTS = 2_000;

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void aSplitServesEachSubjectItsVersionByWeightAndCountsIt() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    publish(url, V1);
    publish(url, V2);
    Result split = StoreCliTest.run(
        List.of("label", "split", "production", "review", "1:90", "2:10", "--store", url));
    assertThat(split.status()).as(split.err()).isZero();
    assertThat(split.out())
        .isEqualTo("label 'production' on review.prompt.md: - -> split 1:90 2:10\n");
    assertThat(StoreCliTest.run(
                List.of("label", "split", "production", "review", "1:90", "2:10", "--store", url))
            .out())
        .contains("is that split already; nothing moved");
    assertThat(StoreCliTest.run(List.of("label", "list", "--store", url)).out())
        .isEqualTo("PATH\tLABEL\tVERSION\tSPLIT\nreview.prompt.md\tproduction\t1\t1:90 2:10\n");
    String history =
        StoreCliTest.run(List.of("history", "review", "--store", url)).out();
    assertThat(history)
        .contains("\tlatest,production:10\n")
        .contains("\tproduction:90\n")
        .contains("review.prompt.md\tproduction\t-\t1:90 2:10\t");

    MockOAuth2Server issuer = new MockOAuth2Server();
    issuer.start();
    List<String> serve = StoreCliTest.java();
    serve.addAll(1, List.of("-Dpromptd.usage.every-ms=200"));
    serve.addAll(List.of(
        "serve",
        "--store",
        url,
        "--label",
        "production",
        "--http",
        "0",
        "--oauth-issuer",
        issuer.issuerUrl("team").toString(),
        "--oauth-audience",
        AUDIENCE,
        "--manage",
        "--manage-scope",
        "promptd.manage"));
    Process server = new ProcessBuilder(serve)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
    try (StoreDatabase database = StoreDatabase.open(StoreUrl.parse(url))) {
      Matcher m = Pattern.compile(" on (http://\\S+/mcp)")
          .matcher(CliProcessTest.awaitLine(err, " on http://"));
      assertThat(m.find()).isTrue();
      URI mcp = URI.create(m.group(1));
      Poll.ok(URI.create(mcp.resolve("/readyz").toString()), Duration.ofSeconds(30));

      // The management API shows the split: on the label, and on each version with its weight.
      String admin = issuer
          .issueToken("team", "admin", AUDIENCE, Map.of("scope", "prompts promptd.manage"), 3600)
          .serialize();
      assertThat(manage(mcp, "/manage/v1/labels", admin))
          .contains("\"split\":[{\"version\":1,\"weight\":90},{\"version\":2,\"weight\":10}]");
      assertThat(manage(mcp, "/manage/v1/versions?name=review", admin))
          .contains("\"splits\":{\"production\":{\"weight\":90,\"of\":100}}")
          .contains("\"splits\":{\"production\":{\"weight\":10,\"of\":100}}")
          .contains("\"split\":\"1:90 2:10\"");

      Map<String, String> tokens = new HashMap<>();
      Map<String, String> got = new HashMap<>();
      int b = 0;
      for (int i = 0; i < SUBJECTS; i++) {
        String subject = "user-" + i;
        String token = issuer
            .issueToken("team", subject, AUDIENCE, Map.of("scope", "prompts"), 3600)
            .serialize();
        tokens.put(subject, token);
        String variant = variant(get(mcp, token));
        got.put(subject, variant);
        b += variant.equals("B") ? 1 : 0;
      }
      double share = b / (double) SUBJECTS;
      System.err.println("split 90/10 over " + SUBJECTS + " subjects: " + b + " got version 2 ("
          + String.format(Locale.ROOT, "%.2f", 100 * share) + " %)");
      assertThat(share).isBetween(0.05, 0.15);
      // Sticky: the first 200 subjects ask again and get what they got.
      for (int i = 0; i < 200; i++) {
        String subject = "user-" + i;
        assertThat(variant(get(mcp, tokens.get(subject)))).as(subject).isEqualTo(got.get(subject));
      }
      long sticky = got.entrySet().stream()
          .filter(e ->
              Integer.parseInt(e.getKey().substring(5)) < 200 && e.getValue().equals("B"))
          .count();
      // Every use written under the version its subject got.
      long expectB = b + sticky;
      long expectA = SUBJECTS + 200 - expectB;
      Poll.until(
          Duration.ofSeconds(60),
          Duration.ofMillis(200),
          () -> "the uses written: " + usesOrFailure(database),
          () -> uses(database).equals(Map.of(digest(V1), expectA, digest(V2), expectB)));

      // A plain move ends the split: everyone gets version 2.
      Result set =
          StoreCliTest.run(List.of("label", "set", "review", "2", "production", "--store", url));
      assertThat(set.status()).as(set.err()).isZero();
      String firstA = got.entrySet().stream()
          .filter(e -> e.getValue().equals("A"))
          .map(Map.Entry::getKey)
          .findFirst()
          .orElseThrow();
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> firstA + " gets version 2 after label set",
          () -> variant(get(mcp, tokens.get(firstA))).equals("B"));
      assertThat(StoreCliTest.run(List.of("label", "list", "--store", url)).out())
          .isEqualTo("PATH\tLABEL\tVERSION\nreview.prompt.md\tproduction\t2\n");
    } finally {
      server.destroy();
      issuer.shutdown();
    }
    assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void mistakesExitTwoAndMoveNothing() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.createDirectories(dir.resolve("ops/incident"));
    Files.writeString(
        dir.resolve("ops/incident/SKILL.md"), "---\nname: incident\ndescription: d\n---\nSteps\n");
    Files.writeString(dir.resolve("ops/incident/notes.md"), "Notes\n");
    Files.writeString(dir.resolve("guide.resource.md"), "---\nuri: docs://guide\n---\nGuide\n");
    publish(url, V1);
    publish(url, V2);
    Map<List<String>, String> mistakes = Map.of(
        List.of("production", "review", "1:100"), "two or more VERSION:WEIGHT",
        List.of("production", "review", "1:50", "1:50"), "each version once",
        List.of("production", "review", "1:50", "3:50"), "has no version 3",
        List.of("production", "review", "1-50", "2:50"), "is not VERSION:WEIGHT",
        List.of("production", "review", "1:0", "2:50"), "weight is 1 to",
        List.of("latest", "review", "1:50", "2:50"), "'latest' always means",
        List.of("production", "ops/incident", "1:50", "2:50"), "a split names one prompt file",
        List.of("production", "guide.resource.md", "1:50", "2:50"), "not a prompt file");
    for (Map.Entry<List<String>, String> e : mistakes.entrySet()) {
      List<String> args = new ArrayList<>(List.of("label", "split"));
      args.addAll(e.getKey());
      args.addAll(List.of("--store", url));
      Result r = StoreCliTest.run(args);
      assertThat(r.status()).as(e.getKey() + ": " + r.err()).isEqualTo(2);
      assertThat(r.err()).as(e.getKey().toString()).contains(e.getValue());
    }
    assertThat(StoreCliTest.run(List.of("label", "list", "--store", url)).out())
        .isEqualTo("PATH\tLABEL\tVERSION\n");
  }

  private void publish(String url, String review) throws Exception {
    Files.writeString(dir.resolve("review.prompt.md"), review);
    Result r = StoreCliTest.run(List.of("publish", dir.toString(), "--store", url));
    assertThat(r.status()).as(r.err()).isZero();
  }

  private static String variant(String body) {
    if (body.contains("variant A")) {
      return "A";
    }
    assertThat(body).contains("variant B");
    return "B";
  }

  private static Map<String, Long> uses(StoreDatabase database) throws Exception {
    Map<String, Long> out = new HashMap<>();
    for (UsageReport.Row row : UsageReport.read(database, Instant.EPOCH, "review")) {
      out.merge(row.version(), row.uses(), Long::sum);
    }
    return out;
  }

  private static String usesOrFailure(StoreDatabase database) {
    try {
      return uses(database).toString();
    } catch (Exception e) {
      return "unreadable: " + e.getMessage();
    }
  }

  private static String digest(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)))
        .substring(0, 12);
  }

  private String manage(URI mcp, String path, String token) throws Exception {
    HttpResponse<String> r = http.send(
        HttpRequest.newBuilder(mcp.resolve(path))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(20))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  /** A 2026-07-28 {@code prompts/get} of {@code review} with {@code token}; the answer's body. */
  private String get(URI mcp, String token) throws Exception {
    String body = OperationsProcessTest.request(
        1,
        "prompts/get",
        "{\"name\":\"review\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"split-test\",\"version\":\"1\"}}}");
    HttpRequest.Builder b = HttpRequest.newBuilder(mcp)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    String[] headers = OperationsProcessTest.modernHeaders("prompts/get", "review");
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(
            b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
