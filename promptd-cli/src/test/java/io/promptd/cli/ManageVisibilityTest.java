package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.ManageCalls.Answer;
import io.promptd.cli.StoreCliTest.Result;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * The management API under the visibility of MCP, with real tokens (mock-oauth2-server) and a real
 * PostgreSQL: the replays of the security review's findings C1 (a label moved on a folder file the
 * caller cannot see, which then served hidden prompts), H1 (hidden files' listings, history, diffs
 * and usage), L3 (one unpaged answer of the whole history), and the API's own scope, the admin
 * scope and the served labels protected by default.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(240)
class ManageVisibilityTest {
  private static final String AUDIENCE = "promptd-visibility-test";
  private static final String MANAGE = "promptd.manage";
  private static final String ADMIN = "promptd.admin";

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

  private static void publish(Path library, String url, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("publish", library.toString(), "--store", url));
    args.addAll(List.of(more));
    Result r = StoreCliTest.run(args);
    assertThat(r.status()).as(r.err()).isZero();
  }

  /**
   * A library with a public prompt, an {@code ops} folder made private by its folder file's second
   * version, a prompt whose own scopes hide it, and a hidden prompt since deleted; published twice,
   * each time with {@code production} and {@code staging} on every file.
   */
  private String library() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Path ops = Files.createDirectories(dir.resolve("ops"));
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    Files.writeString(ops.resolve("_folder.yaml"), "scopes: []\n");
    Files.writeString(ops.resolve("rotate.prompt.md"), "Rotate with password hunter2\n");
    Files.writeString(
        dir.resolve("gone.prompt.md"), "---\nscopes: [secret]\n---\nThe vault code is 1234\n");
    publish(dir, url, "--label", "production");
    Files.writeString(ops.resolve("_folder.yaml"), "scopes: [ops]\n");
    Files.writeString(ops.resolve("rotate.prompt.md"), "Rotate with password hunter3\n");
    Files.delete(dir.resolve("gone.prompt.md"));
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello there\n");
    publish(dir, url, "--label", "production");
    publish(dir, url, "--label", "staging");
    return url;
  }

  private static Process serve(String url, String... more) throws Exception {
    List<String> serve = StoreCliTest.java();
    serve.addAll(List.of(
        "serve",
        "--store",
        url,
        "--label",
        "production",
        "--label",
        "staging",
        "--http",
        "0",
        "--manage",
        "--manage-scope",
        MANAGE,
        "--oauth-issuer",
        calls.issuerUrl(),
        "--oauth-audience",
        AUDIENCE));
    serve.addAll(List.of(more));
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

  private static List<String> paths(Answer prompts) {
    return prompts.json().array("files").orElseThrow().elements().stream()
        .map(f -> ((JsonObject) f).string("path").orElseThrow())
        .toList();
  }

  @Test
  void aTokenWithoutAFilesScopesCanNeitherReadNorMoveAnythingAboutIt() throws Exception {
    String url = library();
    Process server = serve(url, "--manage-admin-scope", ADMIN);
    try {
      String base = baseOf(server);
      String plain = token("dora", "prompts " + MANAGE);
      String ops = token("olga", "prompts ops secret " + MANAGE);

      // H1: the listing shows only what prompts/list shows the same token.
      assertThat(paths(call(base, "GET", "/manage/v1/prompts", plain, null)))
          .containsExactly("hello.prompt.md");
      assertThat(paths(call(base, "GET", "/manage/v1/prompts", ops, null)))
          .containsExactly(
              "gone.prompt.md", "hello.prompt.md", "ops/_folder.yaml", "ops/rotate.prompt.md");

      // H1: a hidden file's versions, diff and usage answer as those of a file that does not exist.
      Answer unknown = call(base, "GET", "/manage/v1/versions?name=nothing", plain, null);
      assertThat(unknown.status()).isEqualTo(404);
      for (String name : List.of("ops/rotate", "rotate", "ops/_folder.yaml", "gone")) {
        Answer versions = call(base, "GET", "/manage/v1/versions?name=" + name, plain, null);
        assertThat(versions.status()).as(name).isEqualTo(404);
        assertThat(versions.body())
            .isEqualTo(unknown.body().replace("nothing", name))
            .doesNotContain("hunter");
        Answer usage = call(base, "GET", "/manage/v1/usage?name=" + name, plain, null);
        assertThat(usage.json().array("rows").orElseThrow().size()).isZero();
      }
      Answer deleted = call(base, "GET", "/manage/v1/diff?name=gone&from=2&to=1", plain, null);
      assertThat(deleted.status()).isEqualTo(404);
      assertThat(deleted.body()).doesNotContain("1234");
      Answer rotate = call(base, "GET", "/manage/v1/diff?name=rotate&from=1&to=2", plain, null);
      assertThat(rotate.status()).isEqualTo(404);
      assertThat(call(base, "GET", "/manage/v1/labels", plain, null).body())
          .doesNotContain("ops/")
          .doesNotContain("gone")
          .contains("hello.prompt.md");
      // The token that holds the scopes sees them.
      Answer seen = call(base, "GET", "/manage/v1/diff?name=rotate&from=1&to=2", ops, null);
      assertThat(seen.status()).as(seen.body()).isEqualTo(200);
      assertThat(seen.body()).contains("hunter3");

      // C1: pinning staging's folder file to its public version is refused as for a missing file,
      // and nothing moved.
      String pin = "{\"name\":\"ops/_folder.yaml\",\"version\":1,\"label\":\"staging\"}";
      Answer c1 = call(base, "POST", "/manage/v1/labels", plain, pin);
      assertThat(c1.status()).as(c1.body()).isEqualTo(404);
      assertThat(c1.body()).isEqualTo(unknown.body().replace("nothing", "ops/_folder.yaml"));
      Answer hidden = call(
          base,
          "POST",
          "/manage/v1/labels",
          plain,
          "{\"name\":\"rotate\",\"version\":1,\"label\":\"fresh\"}");
      assertThat(hidden.status()).isEqualTo(404);
      assertThat(StoreCliTest.run(List.of("label", "list", "ops/_folder.yaml", "--store", url))
              .out())
          .contains("ops/_folder.yaml\tstaging\t2");
      assertThat(StoreCliTest.run(List.of("label", "list", "rotate", "--store", url))
              .out())
          .doesNotContain("fresh");
      // staging still hides ops from the plain token on MCP.
      assertThat(UsageServeTest.promptsGet(
              calls.http(), URI.create(base + "/labels/staging/mcp"), plain, "rotate", "{}", "1.0"))
          .doesNotContain("hunter");

      // A token that sees the folder file still needs the admin scope to move what decides
      // visibility.
      Answer noAdmin = call(base, "POST", "/manage/v1/labels", ops, pin);
      assertThat(noAdmin.status()).as(noAdmin.body()).isEqualTo(403);
      assertThat(noAdmin.json().string("error").orElseThrow()).contains("'" + ADMIN + "'");
      String admin = token("ada", "prompts ops secret " + MANAGE + " " + ADMIN);
      Answer done = call(base, "POST", "/manage/v1/labels", admin, pin);
      assertThat(done.status()).as(done.body()).isEqualTo(200);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  @Test
  void theApiNeedsItsScopeAndServedLabelsAreProtectedByDefault() throws Exception {
    String url = library();
    Process server = serve(url);
    try {
      String base = baseOf(server);
      String prompts = token("dora", "prompts");
      Answer refused = call(base, "GET", "/manage/v1/prompts", prompts, null);
      assertThat(refused.status()).isEqualTo(403);
      assertThat(refused.json().string("error"))
          .hasValue("the management API needs the scope '" + MANAGE + "' in the access token");
      assertThat(call(base, "POST", "/manage/v1/labels", prompts, "{}").status())
          .isEqualTo(403);

      String plain = token("dora", "prompts " + MANAGE);
      // staging is served: without an admin scope on this server only the command line moves it.
      Answer staging = call(
          base,
          "POST",
          "/manage/v1/labels",
          plain,
          "{\"name\":\"hello\",\"version\":1,\"label\":\"staging\"}");
      assertThat(staging.status()).as(staging.body()).isEqualTo(403);
      assertThat(staging.json().string("error").orElseThrow())
          .contains("served by this server and protected by default");
      // A label nobody serves moves as before.
      Answer review = call(
          base,
          "POST",
          "/manage/v1/labels",
          plain,
          "{\"name\":\"hello\",\"version\":1,\"label\":\"review\"}");
      assertThat(review.status()).as(review.body()).isEqualTo(200);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }

  @Test
  void thePromptsListingComesInPages() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    for (int i = 0; i < 7; i++) {
      Files.writeString(dir.resolve("p" + i + ".prompt.md"), "Prompt " + i + "\n");
    }
    Files.writeString(dir.resolve("hidden.prompt.md"), "---\nscopes: [ops]\n---\nHidden\n");
    publish(dir, url);
    Process server = serve(url);
    try {
      String base = baseOf(server);
      String plain = token("dora", "prompts " + MANAGE);
      List<String> all = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        Answer page = call(
            base,
            "GET",
            "/manage/v1/prompts?limit=3" + (cursor == null ? "" : "&cursor=" + cursor),
            plain,
            null);
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        all.addAll(paths(page));
        Json next = page.json().get("nextCursor");
        cursor = next == null ? null : page.json().string("nextCursor").orElseThrow();
        pages++;
      } while (cursor != null && pages < 10);
      assertThat(pages).isEqualTo(3);
      assertThat(all)
          .containsExactly(
              "p0.prompt.md",
              "p1.prompt.md",
              "p2.prompt.md",
              "p3.prompt.md",
              "p4.prompt.md",
              "p5.prompt.md",
              "p6.prompt.md");
      assertThat(call(base, "GET", "/manage/v1/prompts?limit=0", plain, null).status())
          .isEqualTo(400);
      assertThat(call(base, "GET", "/manage/v1/prompts?cursor=***", plain, null).status())
          .isEqualTo(400);
    } finally {
      server.destroy();
      server.waitFor();
    }
  }
}
