package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.ManageCalls.Answer;
import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /manage/v1/labels/promote} and {@code GET /manage/v1/promotions} against a real
 * PostgreSQL with tokens from a real authorization server (mock-oauth2-server): the dry run's diff,
 * a protected {@code to} refused as a whole without its scope, the promotion recorded once as
 * {@code api:SUBJECT}, a file the token may not see neither moved nor named, a move that needs the
 * admin scope refusing the whole promotion, and each bad body answered 400 or 404 with a message.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class ManageApiPromoteTest {
  private static final String AUDIENCE = "promptd-manage-promote-test";
  private static final String PROMOTE = "promote:production";
  private static final String PATH = "/manage/v1/labels/promote";

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

  private static String token(String subject, String scope) {
    return calls.token(subject, scope);
  }

  private static Answer call(String base, String method, String path, String token, String body)
      throws Exception {
    return calls.call(base, method, path, token, body);
  }

  private static Result cli(String... args) throws Exception {
    Result r = StoreCliTest.run(List.of(args));
    assertThat(r.status()).as(String.join(" ", args) + ": " + r.err()).isZero();
    return r;
  }

  @Test
  void promotesWhatTheTokenMaySeeInOneRecordedStepOrNothing() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("a.prompt.md"), "A\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B\n");
    Files.writeString(dir.resolve("c.prompt.md"), "C\n");
    Files.writeString(dir.resolve("hidden.prompt.md"), "---\nscopes: [ops]\n---\nHidden\n");
    cli("publish", dir.toString(), "--store", url, "--label", "staging");
    cli("label", "set", "a", "1", "production", "--store", url);
    cli("label", "set", "c", "1", "production", "--store", url);
    Files.writeString(dir.resolve("a.prompt.md"), "A2\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B2\n");
    cli("publish", dir.toString(), "--store", url, "--label", "staging");
    cli("label", "rm", "c", "staging", "--store", url);
    cli("label", "protect", "production", "--scope", PROMOTE, "--store", url);
    String before = cli("label", "list", "--store", url).out();

    Process server = serve(url);
    try {
      String base = baseOf(server);
      String plain = token("dora", "prompts " + ManageApiTest.MANAGE);
      String promoter = token("pat", "prompts " + ManageApiTest.MANAGE + " " + PROMOTE);
      String release = "{\"from\":\"staging\",\"to\":\"production\"}";

      // Without production's scope: refused as a whole, dry run or not; nothing moved.
      for (String body :
          List.of(release, "{\"from\":\"staging\",\"to\":\"production\"," + "\"dryRun\":true}")) {
        Answer refused = call(base, "POST", PATH, plain, body);
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        assertThat(refused.json().string("error"))
            .hasValue(
                "the label 'production' is protected: moving it needs the scope '" + PROMOTE + "'");
      }
      assertThat(cli("label", "list", "--store", url).out()).isEqualTo(before);

      // The dry run: the diff, file by file; the hidden file is not named; nothing written.
      String diff =
          "\"files\":[{\"path\":\"a.prompt.md\",\"from\":1,\"to\":2,\"change\":\"changed\"},"
              + "{\"path\":\"b.prompt.md\",\"from\":null,\"to\":2,\"change\":\"added\"},"
              + "{\"path\":\"c.prompt.md\",\"from\":1,\"to\":null,\"change\":\"removed\"}]";
      Answer dry = call(
          base,
          "POST",
          PATH,
          promoter,
          "{\"from\":\"staging\",\"to\":\"production\"," + "\"dryRun\":true}");
      assertThat(dry.status()).as(dry.body()).isEqualTo(200);
      assertThat(dry.body())
          .startsWith("{\"promotion\":null,\"from\":\"staging\",\"to\":\"production\","
              + "\"dryRun\":true,\"libraryVersion\":2,\"author\":\"api:pat\",\"time\":")
          .endsWith(diff + "}")
          .doesNotContain("hidden");
      assertThat(cli("label", "list", "--store", url).out()).isEqualTo(before);

      Answer done = call(base, "POST", PATH, promoter, release);
      assertThat(done.status()).as(done.body()).isEqualTo(200);
      assertThat(done.body())
          .startsWith(
              "{\"promotion\":1,\"from\":\"staging\",\"to\":\"production\"," + "\"dryRun\":false,")
          .endsWith(diff + "}");
      assertThat(cli("label", "list", "--store", url).out())
          .isEqualTo("PATH\tLABEL\tVERSION\n"
              + "a.prompt.md\tproduction\t2\na.prompt.md\tstaging\t2\n"
              + "b.prompt.md\tproduction\t2\nb.prompt.md\tstaging\t2\n"
              + "hidden.prompt.md\tstaging\t1\n");
      // Recorded once, shown once: over the API and by promptd history.
      Answer listed = call(base, "GET", "/manage/v1/promotions", plain, null);
      assertThat(listed.status()).as(listed.body()).isEqualTo(200);
      assertThat(listed.json().array("promotions").orElseThrow().size()).isEqualTo(1);
      assertThat(listed.body()).contains("\"author\":\"api:pat\"").contains(diff);
      assertThat(cli("history", "--store", url).out())
          .matches("PROMOTION\tFROM\tTO\tLIBRARY_VERSION\tTIME\tAUTHOR\tMOVES\n"
              + "1\tstaging\tproduction\t2\t\\S+\tapi:pat\ta\\.prompt\\.md: 1 -> 2,"
              + " b\\.prompt\\.md: - -> 2, c\\.prompt\\.md: 1 -> -\n");
      Answer again = call(base, "POST", PATH, promoter, release);
      assertThat(again.body()).startsWith("{\"promotion\":null,").endsWith("\"files\":[]}");

      // --only: those prompts' files; an unprotected label moves with the API's scope alone.
      Answer only = call(
          base, "POST", PATH, plain, "{\"from\":\"staging\",\"to\":\"canary\",\"only\":[\"b\"]}");
      assertThat(only.status()).as(only.body()).isEqualTo(200);
      assertThat(only.body())
          .endsWith("\"files\":[{\"path\":\"b.prompt.md\",\"from\":null,\"to\":2,"
              + "\"change\":\"added\"}]}");

      // A move that changes who sees what (a folder file) needs the admin scope: all refused.
      Files.createDirectories(dir.resolve("team"));
      Files.writeString(dir.resolve("team/_folder.yaml"), "scopes: []\n");
      Files.writeString(dir.resolve("team/t.prompt.md"), "T\n");
      cli("publish", dir.toString(), "--store", url, "--label", "staging");
      cli("label", "set", "team/_folder.yaml", "1", "production", "--store", url);
      Files.writeString(dir.resolve("team/_folder.yaml"), "scopes: [] # reviewed\n");
      cli("publish", dir.toString(), "--store", url, "--label", "staging");
      String staged = cli("label", "list", "--store", url).out();
      Answer admin = call(base, "POST", PATH, promoter, release);
      assertThat(admin.status()).as(admin.body()).isEqualTo(403);
      assertThat(admin.json().string("error"))
          .hasValue("moving 'production' on 'team/_folder.yaml' changes who may see prompts (a"
              + " folder file or a file's scopes): this server has no --manage-admin-scope, so"
              + " only the command line (promptd label set) can do it");
      assertThat(cli("label", "list", "--store", url).out()).isEqualTo(staged);

      // Mistakes: a message each, never a stack trace; nothing moved.
      record Mistake(String body, int status, String says) {}
      for (Mistake m : List.of(
          new Mistake("{not json", 400, "the body is not JSON"),
          new Mistake("[]", 400, "the body must be a JSON object"),
          new Mistake("{\"from\":\"staging\"}", 400, "the body needs \"to\", a label"),
          new Mistake("{\"from\":7,\"to\":\"production\"}", 400, "the body needs \"from\""),
          new Mistake(
              "{\"from\":\"staging\",\"to\":\"production\",\"dry_run\":true}",
              400,
              "unknown field \"dry_run\""),
          new Mistake(
              "{\"from\":\"staging\",\"to\":\"production\",\"dryRun\":\"yes\"}",
              400,
              "\"dryRun\" must be true or false"),
          new Mistake(
              "{\"from\":\"staging\",\"to\":\"production\",\"only\":\"a\"}",
              400,
              "\"only\" must be a non-empty list"),
          new Mistake(
              "{\"from\":\"latest\",\"to\":\"production\"}", 400, "not a release to promote"),
          new Mistake("{\"from\":\"Staging\",\"to\":\"production\"}", 400, "not a label name"),
          new Mistake("{\"from\":\"staging\",\"to\":\"staging\"}", 400, "not 'staging' to itself"),
          new Mistake("{\"from\":\"nope\",\"to\":\"production\"}", 404, "points at no file"),
          new Mistake(
              "{\"from\":\"staging\",\"to\":\"production\",\"only\":[\"nope\"]}",
              404,
              "no file in the store is or names 'nope'"),
          new Mistake(
              "{\"from\":\"staging\",\"to\":\"production\",\"only\":[\"hidden\"]}",
              404,
              "no file in the store is or names 'hidden'"))) {
        Answer a = call(base, "POST", PATH, promoter, m.body());
        assertThat(a.status()).as(m.body() + " -> " + a.body()).isEqualTo(m.status());
        assertThat(a.json().string("error"))
            .as(m.body())
            .hasValueSatisfying(e -> assertThat(e).contains(m.says()));
        assertThat(a.body()).doesNotContain("Exception").doesNotContain("io.promptd");
      }
      Answer get = call(base, "GET", PATH, promoter, null);
      assertThat(get.status()).isEqualTo(405);
      assertThat(cli("label", "list", "--store", url).out()).isEqualTo(staged);
    } finally {
      server.destroy();
      server.waitFor();
    }
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
