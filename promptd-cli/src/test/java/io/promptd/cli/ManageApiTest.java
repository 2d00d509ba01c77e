package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.ManageCalls.Answer;
import io.promptd.cli.StoreCliTest.Result;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
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
 * {@code promptd serve --store URL --http --manage} against a real PostgreSQL, with access tokens
 * from a real authorization server (mock-oauth2-server): each endpoint's JSON, 400/401/403/404, a
 * protected label refused without its scope and moved with it, and every path the API answers
 * described in its OpenAPI document.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class ManageApiTest {
  private static final String AUDIENCE = "promptd-manage-test";
  private static final String PROMOTE = "promote:production";
  static final String MANAGE = "promptd.manage";

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

  @Test
  void managesLabelsWithTokensAndProtectedLabelsNeedTheirScope() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\nworld\n");
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\nthere\n");
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();
    Result protect = StoreCliTest.run(
        List.of("label", "protect", "production", "--scope", PROMOTE, "--store", url));
    assertThat(protect.status()).as(protect.err()).isZero();

    Process server = serve(url);
    try {
      String base = baseOf(server);
      String plain = token("dora", "prompts " + MANAGE);
      String promoter = token("pat", "prompts " + MANAGE + " " + PROMOTE);

      // No token: 401 with the challenge; the endpoints answer only with one.
      assertThat(call(base, "GET", "/manage/v1/prompts", null, null).status()).isEqualTo(401);

      Answer prompts = call(base, "GET", "/manage/v1/prompts", plain, null);
      assertThat(prompts.status()).as(prompts.body()).isEqualTo(200);
      JsonObject file = (JsonObject) prompts.json().array("files").orElseThrow().get(0);
      assertThat(file.string("path")).hasValue("hello.prompt.md");
      assertThat(file.array("versions").orElseThrow().size()).isEqualTo(2);
      assertThat(prompts.json().object("protectedLabels").orElseThrow().string("production"))
          .hasValue(PROMOTE);

      Answer diff = call(base, "GET", "/manage/v1/diff?name=hello&from=1&to=2", plain, null);
      assertThat(diff.status()).as(diff.body()).isEqualTo(200);
      assertThat(diff.json().string("diff"))
          .hasValue("--- a/hello.prompt.md (version 1)\n+++ b/hello.prompt.md (version 2)\n"
              + "@@ -1,2 +1,2 @@\n Hello\n-world\n+there\n");

      // An unprotected label moves with any valid token; the move is recorded with the subject.
      Answer staging = call(
          base,
          "POST",
          "/manage/v1/labels",
          plain,
          "{\"name\":\"hello\",\"version\":1,\"label\":\"staging\"}");
      assertThat(staging.status()).as(staging.body()).isEqualTo(200);
      JsonObject move = (JsonObject) staging.json().array("moves").orElseThrow().get(0);
      assertThat(move.string("author")).hasValue("api:dora");

      // The protected label: 403 without its scope, nothing moved; moved with it.
      String toProduction = "{\"name\":\"hello\",\"version\":2,\"label\":\"production\"}";
      Answer refused = call(base, "PUT", "/manage/v1/labels", plain, toProduction);
      assertThat(refused.status()).isEqualTo(403);
      assertThat(refused.json().string("error"))
          .hasValue(
              "the label 'production' is protected: moving it needs the scope '" + PROMOTE + "'");
      Answer labels = call(base, "GET", "/manage/v1/labels", plain, null);
      assertThat(labels.body()).doesNotContain("\"label\":\"production\"");
      Answer promoted = call(base, "PUT", "/manage/v1/labels", promoter, toProduction);
      assertThat(promoted.status()).as(promoted.body()).isEqualTo(200);

      Answer versions = call(base, "GET", "/manage/v1/versions?name=hello", plain, null);
      assertThat(versions.status()).isEqualTo(200);
      assertThat(versions.body())
          .contains("\"labels\":[\"production\"]")
          .contains("\"labels\":[\"staging\"]")
          .contains("\"author\":\"api:pat\"");

      // Mistakes: 400, 404, 405, 413; never a stack trace or a class name.
      List<Answer> mistakes = List.of(
          call(base, "POST", "/manage/v1/labels", plain, "{not json"),
          call(base, "POST", "/manage/v1/labels", plain, "{\"name\":\"hello\",\"label\":\"x\"}"),
          call(
              base,
              "POST",
              "/manage/v1/labels",
              plain,
              "{\"name\":\"hello\",\"version\":1,\"label\":\"Bad Label\"}"),
          call(base, "GET", "/manage/v1/diff?name=hello&from=one&to=2", plain, null),
          call(base, "GET", "/manage/v1/versions", plain, null));
      mistakes.forEach(a -> assertThat(a.status()).as(a.body()).isEqualTo(400));
      assertThat(call(base, "GET", "/manage/v1/versions?name=nope", plain, null).status())
          .isEqualTo(404);
      assertThat(call(base, "GET", "/manage/v1/diff?name=hello&from=1&to=9", plain, null)
              .status())
          .isEqualTo(404);
      assertThat(call(
                  base,
                  "POST",
                  "/manage/v1/labels",
                  plain,
                  "{\"name\":\"hello\",\"version\":7,\"label\":\"staging\"}")
              .status())
          .isEqualTo(404);
      assertThat(call(base, "DELETE", "/manage/v1/labels", plain, null).status())
          .isEqualTo(405);
      assertThat(call(
                  base,
                  "POST",
                  "/manage/v1/labels",
                  plain,
                  "{\"name\":\"" + "x".repeat(ManageApi.MAX_BODY) + "\"}")
              .status())
          .isEqualTo(413);
      for (Answer a : mistakes) {
        assertThat(a.json().string("error")).isPresent();
        assertThat(a.body()).doesNotContain("Exception").doesNotContain("io.promptd");
      }

      // Every path the API answers is described, and nothing else is.
      Answer openapi = call(base, "GET", "/manage/v1/openapi.json", plain, null);
      assertThat(openapi.status()).isEqualTo(200);
      JsonObject paths = openapi.json().object("paths").orElseThrow();
      assertThat(new TreeSet<>(paths.members().keySet())).isEqualTo(new TreeSet<>(ManageApi.PATHS));
      for (String path : ManageApi.PATHS) {
        assertThat(call(base, "GET", path, plain, null).status()).as(path).isNotEqualTo(404);
      }
      assertThat(call(base, "GET", "/manage/v1/other", plain, null).status()).isEqualTo(404);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  /** {@code serve --store URL --http 0 --manage} with OAuth, writing usage every 200 ms. */
  private static Process serve(String url) throws Exception {
    List<String> serve = StoreCliTest.java();
    serve.add(1, "-Dpromptd.usage.every-ms=200");
    serve.addAll(List.of(
        "serve",
        "--store",
        url,
        "--http",
        "0",
        "--manage",
        "--manage-scope",
        MANAGE,
        "--oauth-issuer",
        calls.issuerUrl(),
        "--oauth-audience",
        AUDIENCE));
    return new ProcessBuilder(serve)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** The server's base URL, once it is ready (the issuer's keys fetched). */
  private static String baseOf(Process server) throws Exception {
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Matcher m = Pattern.compile("on (http://\\S+)/mcp")
        .matcher(CliProcessTest.awaitLine(serverErr, " on http://"));
    assertThat(m.find()).isTrue();
    String base = m.group(1);
    Poll.ok(URI.create(base + "/readyz"), Duration.ofSeconds(30));
    return base;
  }

  /**
   * {@code GET /manage/v1/usage}: the prompts/get calls made, counted per version, label, client
   * and outcome, as {@code promptd usage} reads them.
   */
  @Test
  void usageCountsThePromptsGetCallsMade() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    Files.writeString(dir.resolve("greet.prompt.md"), """
        ---
        arguments:
          - name: who
            required: true
        ---
        Hi {{who}}
        """);
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();
    Process server = serve(url);
    try {
      String base = baseOf(server);
      String plain = token("dora", "prompts " + MANAGE);
      URI mcp = URI.create(base + "/mcp");
      for (int i = 0; i < 3; i++) {
        assertThat(UsageServeTest.promptsGet(
                calls.http(), mcp, plain, "greet", "{\"who\":\"Ada\"}", "1.0"))
            .contains("Hi Ada");
      }
      assertThat(UsageServeTest.promptsGet(calls.http(), mcp, plain, "greet", "{}", "1.0"))
          .contains("-32602");
      assertThat(UsageServeTest.promptsGet(calls.http(), mcp, plain, "hello", "{}", "1.0"))
          .contains("Hello");

      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> "4 uses of greet answered by /manage/v1/usage",
          () -> call(base, "GET", "/manage/v1/usage?name=greet", plain, null)
              .body()
              .contains("\"outcome\":\"refused\",\"uses\":1"));
      // hello's use may be written in a later round than greet's: wait for it as well.
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> "the use of hello answered by /manage/v1/usage",
          () -> !call(base, "GET", "/manage/v1/usage?name=hello", plain, null)
              .body()
              .contains("\"rows\":[]"));
      Answer greet = call(base, "GET", "/manage/v1/usage?name=greet&since=1h", plain, null);
      assertThat(greet.status()).as(greet.body()).isEqualTo(200);
      assertThat(greet.json().string("name")).hasValue("greet");
      assertThat(greet.json().array("rows").orElseThrow().elements().stream()
              .map(r -> (JsonObject) r)
              .map(r ->
                  r.string("label").orElseThrow() + " " + r.string("client").orElseThrow()
                      + " " + r.string("outcome").orElseThrow() + " " + r.get("uses")
                      + " " + JsonCodec.write(r.array("storeVersions").orElseThrow()))
              .toList())
          .containsExactly("latest OPS refused 1 [1]", "latest OPS rendered 3 [1]");
      assertThat(greet.body()).contains("\"totalMicros\":");
      Answer hello = call(base, "GET", "/manage/v1/usage?name=hello", plain, null);
      assertThat(hello.json().array("rows").orElseThrow().size()).isEqualTo(1);
      assertThat(call(base, "GET", "/manage/v1/usage?name=nobody", plain, null).body())
          .contains("\"rows\":[]");

      Answer badSince = call(base, "GET", "/manage/v1/usage?name=greet&since=week", plain, null);
      assertThat(badSince.status()).isEqualTo(400);
      assertThat(badSince.json().string("error"))
          .hasValue(
              "'since' must be a number of days, hours or minutes (7d, 12h, 30m), not 'week'");
      assertThat(call(base, "GET", "/manage/v1/usage", plain, null).status()).isEqualTo(400);
      assertThat(call(base, "GET", "/manage/v1/usage?name=greet", null, null).status())
          .isEqualTo(401);
      assertThat(call(base, "POST", "/manage/v1/usage?name=greet", plain, "{}").status())
          .isEqualTo(405);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  @Test
  void theCommandLineMovesAProtectedLabelAndRecordsTheUser() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();
    assertThat(StoreCliTest.run(
                List.of("label", "protect", "production", "--scope", PROMOTE, "--store", url))
            .out())
        .contains("label 'production' is protected");
    Result set =
        StoreCliTest.run(List.of("label", "set", "hello", "1", "production", "--store", url));
    assertThat(set.status()).as(set.err()).isZero();
    assertThat(StoreCliTest.run(List.of("history", "hello", "--store", url)).out())
        .containsPattern("hello\\.prompt\\.md\tproduction\t-\t1\t1\t\\S+\t"
            + Pattern.quote(System.getProperty("user.name")) + "\n");

    assertThat(StoreCliTest.run(List.of("label", "protect", "production", "--store", url))
            .status())
        .isEqualTo(Main.USAGE);
    assertThat(StoreCliTest.run(
                List.of("label", "protect", "production", "--scope", "a b", "--store", url))
            .status())
        .isEqualTo(Main.USAGE);
    assertThat(StoreCliTest.run(List.of("label", "unprotect", "production", "--store", url))
            .out())
        .contains("no longer protected");
    assertThat(StoreCliTest.run(List.of("label", "unprotect", "production", "--store", url))
            .status())
        .isEqualTo(Main.USAGE);
  }

  @Test
  void manageNeedsAStoreHttpAndOAuth() {
    List<List<String>> wrong = List.of(
        List.of("--http", "--manage", "dir"),
        List.of(
            "--store", "postgresql://u@h/db", "--manage", "--oauth-issuer", "https://a.example"),
        List.of("--store", "postgresql://u@h/db", "--http", "--manage"),
        List.of(
            "--store",
            "postgresql://u@h/db",
            "--http",
            "--manage",
            "--oauth-issuer",
            "https://a.example"),
        List.of("--http", "--manage-scope", "x", "dir"));
    List<String> said = wrong.stream()
        .map(args -> {
          try {
            ServeOptions.parse(args);
            return "accepted";
          } catch (UsageException e) {
            return e.getMessage();
          }
        })
        .toList();
    assertThat(said.get(0)).contains("--manage needs --store");
    assertThat(said.get(1)).contains("--manage needs --http");
    assertThat(said.get(2)).contains("--manage needs OAuth");
    assertThat(said.get(3)).contains("--manage needs --manage-scope");
    assertThat(said.get(4)).contains("go with --manage");
  }
}
