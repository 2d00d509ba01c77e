package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.ManageCalls.Answer;
import io.promptd.cli.StoreCliTest.Result;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /manage/v1/promotions/revert} against a real PostgreSQL and a real served promptd,
 * with tokens from a real authorization server (mock-oauth2-server): docs/lifecycle.md's curl lines
 * ("Reverting over the management API") run as written, the dry run writing nothing, the revert
 * recorded as {@code api:SUBJECT} and listed with {@code "reverts"}; a promotion that moved only
 * files the token may not see answered as an unknown number, one that moved some of them refused
 * without naming them, a protected label refused without its scope, a label moved since refused
 * whole, and each bad body and method answered with a message; nothing moved by any refusal.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class ManageApiRevertTest {
  private static final String AUDIENCE = "promptd-manage-revert-test";
  private static final String PROMOTE = "promote:production";
  private static final String PATH = "/manage/v1/promotions/revert";
  private static final String HEADING = "#### Reverting over the management API";

  private static ManageCalls calls;

  @TempDir
  Path dir;

  @BeforeAll
  static void startIssuer() {
    calls = ManageCalls.start(AUDIENCE);
  }

  @AfterAll
  static void stopIssuer() {
    calls.close();
  }

  private static Result cli(String... args) throws Exception {
    Result r = StoreCliTest.run(List.of(args));
    assertThat(r.status()).as(String.join(" ", args) + ": " + r.err()).isZero();
    return r;
  }

  @Test
  void revertsWhatTheTokenMaySeeInOneRecordedStepOrNothing() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("a.prompt.md"), "A\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B\n");
    Files.writeString(dir.resolve("hidden.prompt.md"), "---\nscopes: [ops]\n---\nHidden\n");
    cli("publish", dir.toString(), "--store", url, "--label", "staging");
    cli("label", "set", "a", "1", "production", "--store", url);
    Files.writeString(dir.resolve("a.prompt.md"), "A2\n");
    cli("publish", dir.toString(), "--store", url, "--label", "staging");
    // #1 moves a hidden file beside visible ones; #2 visible ones only; #3 the hidden one only;
    // #4 a label moved again since.
    cli("label", "promote", "staging", "production", "--store", url);
    cli("label", "promote", "staging", "canary", "--only", "a", "--only", "b", "--store", url);
    cli("label", "promote", "staging", "qa", "--only", "hidden", "--store", url);
    cli("label", "promote", "staging", "beta", "--only", "a", "--store", url);
    cli("label", "set", "a", "1", "beta", "--store", url);
    cli("label", "protect", "production", "--scope", PROMOTE, "--store", url);
    String before = cli("label", "list", "--store", url).out();

    Process server = serve(url);
    try {
      String base = baseOf(server);
      String plain = calls.token("dora", "prompts " + ManageApiTest.MANAGE);
      String ops = calls.token("olga", "prompts ops " + ManageApiTest.MANAGE);

      // docs/lifecycle.md's lines, as written: the dry run, then the revert of promotion #2.
      List<String> answers = runTheDocsLines(base, plain);
      assertThat(answers).hasSize(2);
      String back = "\"reverts\":2,\"files\":["
          + "{\"path\":\"a.prompt.md\",\"from\":2,\"to\":null,\"change\":\"removed\"},"
          + "{\"path\":\"b.prompt.md\",\"from\":1,\"to\":null,\"change\":\"removed\"}]}";
      assertThat(answers.getFirst())
          .startsWith("{\"promotion\":null,\"from\":\"staging\",\"to\":\"canary\",\"dryRun\":true,")
          .contains(",\"author\":\"api:dora\",")
          .endsWith(back);
      assertThat(answers.get(1))
          .startsWith("{\"promotion\":5,\"from\":\"staging\",\"to\":\"canary\",\"dryRun\":false,")
          .endsWith(back);
      String reverted = cli("label", "list", "--store", url).out();
      assertThat(reverted)
          .isEqualTo(before
              .replace("a.prompt.md\tcanary\t2\n", "")
              .replace("b.prompt.md\tcanary\t1\n", ""));
      // Recorded once, as a revert: over the API and by promptd history.
      Answer listed = call(base, "GET", "/manage/v1/promotions", plain, null);
      assertThat(listed.status()).as(listed.body()).isEqualTo(200);
      assertThat(JsonCodec.write(listed.json().array("promotions").orElseThrow().get(0)))
          .contains("\"promotion\":5")
          .contains("\"reverts\":2")
          .contains("\"author\":\"api:dora\"");
      assertThat(listed.body()).contains("\"promotion\":2,").contains("\"reverts\":null");
      assertThat(cli("history", "--store", url).out())
          .containsPattern("\n5\treverts #2\tcanary\t\\d+\t\\S+\tapi:dora\t"
              + "a\\.prompt\\.md: 2 -> -, b\\.prompt\\.md: 1 -> -\n");

      // #4: beta moved since on a.prompt.md: refused whole, the file named.
      Answer moved = call(base, "POST", PATH, plain, "{\"promotion\":4}");
      assertThat(moved.status()).as(moved.body()).isEqualTo(409);
      assertThat(moved.json().string("error"))
          .hasValue("cannot revert promotion #4: 'beta' moved since on a.prompt.md (see promptd"
              + " history --store); no label was moved");

      // Only hidden files: answered exactly as a number that names no promotion.
      Answer unknown = call(base, "POST", PATH, plain, "{\"promotion\":99}");
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.json().string("error"))
          .hasValue("there is no promotion #99 (GET /manage/v1/promotions lists them)");
      Answer hiddenOnly = call(base, "POST", PATH, plain, "{\"promotion\":3}");
      assertThat(hiddenOnly.status()).isEqualTo(404);
      assertThat(hiddenOnly.body()).isEqualTo(unknown.body().replace("#99", "#3"));

      // Some hidden files: refused, and none named; dry run or not.
      for (String body : List.of("{\"promotion\":1}", "{\"promotion\":1,\"dryRun\":true}")) {
        Answer partly = call(base, "POST", PATH, plain, body);
        assertThat(partly.status()).as(partly.body()).isEqualTo(403);
        assertThat(partly.json().string("error"))
            .hasValue("promotion #1 also moved files this token may not see: only a token that"
                + " may see every file it moved, or the command line (promptd label revert 1),"
                + " can revert it; no label was moved");
      }
      // A token that sees them all still needs production's scope.
      Answer protectedLabel = call(base, "POST", PATH, ops, "{\"promotion\":1}");
      assertThat(protectedLabel.status()).as(protectedLabel.body()).isEqualTo(403);
      assertThat(protectedLabel.json().string("error"))
          .hasValue(
              "the label 'production' is protected: moving it needs the scope '" + PROMOTE + "'");
      String promoter = calls.token("pat", "prompts ops " + ManageApiTest.MANAGE + " " + PROMOTE);
      Answer dry = call(base, "POST", PATH, promoter, "{\"promotion\":1,\"dryRun\":true}");
      assertThat(dry.status()).as(dry.body()).isEqualTo(200);
      assertThat(dry.body())
          .startsWith("{\"promotion\":null,")
          .contains("\"reverts\":1,")
          .contains(
              "{\"path\":\"hidden.prompt.md\",\"from\":1,\"to\":null,\"change\":\"removed\"}");

      // Mistakes: a message each, never a stack trace.
      record Mistake(String body, int status, String says) {}
      for (Mistake m : List.of(
          new Mistake("{not json", 400, "the body is not JSON"),
          new Mistake("[2]", 400, "the body must be a JSON object"),
          new Mistake("{}", 400, "\"promotion\" must be a promotion's number"),
          new Mistake("{\"promotion\":\"2\"}", 400, "\"promotion\" must be a promotion's number"),
          new Mistake("{\"promotion\":0}", 400, "\"promotion\" must be a promotion's number"),
          new Mistake("{\"promotion\":-2}", 400, "\"promotion\" must be a promotion's number"),
          new Mistake("{\"promotion\":2.5}", 400, "\"promotion\" must be a promotion's number"),
          new Mistake(
              "{\"promotion\":99999999999999999999}",
              400,
              "\"promotion\" must be a promotion's number"),
          new Mistake(
              "{\"promotion\":2,\"dryRun\":\"yes\"}", 400, "\"dryRun\" must be true or false"),
          new Mistake("{\"promotion\":2,\"dry_run\":true}", 400, "unknown field \"dry_run\""))) {
        Answer a = call(base, "POST", PATH, plain, m.body());
        assertThat(a.status()).as(m.body() + " -> " + a.body()).isEqualTo(m.status());
        assertThat(a.json().string("error"))
            .as(m.body())
            .hasValueSatisfying(e -> assertThat(e).contains(m.says()));
        assertThat(a.body()).doesNotContain("Exception").doesNotContain("io.promptd");
      }
      Answer get = call(base, "GET", PATH, plain, null);
      assertThat(get.status()).isEqualTo(405);
      assertThat(get.json().string("error"))
          .hasValue("use POST with {\"promotion\": NUMBER} to revert a promotion");
      assertThat(cli("label", "list", "--store", url).out()).isEqualTo(reverted);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  private static Answer call(String base, String method, String path, String token, String body)
      throws Exception {
    return calls.call(base, method, path, token, body);
  }

  /**
   * Runs docs/lifecycle.md's shell block under {@link #HEADING} as written, with
   * {@code $PROMPTD_URL} the server and {@code $TOKEN} {@code token}: each line it prints, an
   * answer.
   */
  private static List<String> runTheDocsLines(String base, String token) throws Exception {
    String block = DocLines.block("lifecycle.md", HEADING, "sh");
    ProcessBuilder sh = new ProcessBuilder("sh", "-ec", block).redirectErrorStream(true);
    sh.environment().put("PROMPTD_URL", base);
    sh.environment().put("TOKEN", token);
    Process p = sh.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    List<String> answers = out.lines().toList();
    for (String a : answers) {
      assertThat(JsonCodec.parse(a)).as(a).isInstanceOf(JsonObject.class);
    }
    return answers;
  }

  /** {@code serve --store URL --http 0 --manage} with OAuth. */
  private static Process serve(String url) throws Exception {
    List<String> serve = StoreCliTest.java();
    serve.addAll(List.of(
        "serve",
        "--store",
        url,
        "--http",
        "0",
        "--manage",
        "--manage-scope",
        ManageApiTest.MANAGE,
        "--oauth-issuer",
        calls.issuerUrl(),
        "--oauth-audience",
        AUDIENCE));
    return new ProcessBuilder(serve)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  private static String baseOf(Process server) throws Exception {
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Matcher m = Pattern.compile("on (http://\\S+)/mcp")
        .matcher(CliProcessTest.awaitLine(serverErr, " on http://"));
    assertThat(m.find()).isTrue();
    String base = m.group(1);
    Poll.ok(URI.create(base + "/readyz"), Duration.ofSeconds(30));
    return base;
  }
}
