package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web catalog ({@code promptd serve --http --catalog}) in a real headless Chromium, the
 * system's (Debian package {@code chromium}), driven over the DevTools protocol by
 * {@code interop/catalog-browser.mjs}: the example library is listed, typing filters, a prompt
 * filled by keyboard with a completion renders what {@code prompts/get} answers, a file saved while
 * the page is open appears, markup in a prompt file saved then (title, description, argument, text)
 * runs nothing, the security headers are there, it fits 375 px and follows the colour scheme.
 * Screenshots go to {@code target/catalog-screenshots/}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CatalogBrowserTest {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path SCREENSHOTS =
      Path.of("target", "catalog-screenshots").toAbsolutePath();

  @TempDir
  Path dir;

  private final List<Process> servers = new ArrayList<>();
  private MockOAuth2Server issuer;

  @BeforeAll
  static void tools() {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("chromium", CHROMIUM.toString());
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : servers) {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    if (issuer != null) {
      issuer.shutdown();
    }
  }

  @Test
  void browsesFiltersCompletesRendersAndFollowsTheExampleLibrary() throws Exception {
    Path library = exampleCopy();
    writeSkills(library);
    int port = Peers.freePort();
    start(PromptdServer.httpCommand(library, port, "--catalog"), port);
    String report = browse(
        port,
        library,
        "--xss",
        "--image-prompt",
        "brand-colors",
        "--skill-file",
        "skill://skills/review/references/checklist.md",
        "--skill-file-path",
        "skills/review/references/checklist.md",
        "--skill-image",
        "skill://skills/review/assets/dot.png");
    assertThat(report)
        .contains(
            "\"skills listed\":\"ok\"",
            "\"skill file read\":\"ok\"",
            "\"skill image inline\":\"ok\"",
            "\"skill change appears live\":\"ok\"",
            "{\"name\":\"release-notes\",\"description\":\"Drafts release notes from merged changes.\","
                + "\"files\":[\"SKILL.md · 102 bytes\",\"release template.md · 7 bytes\"]}",
            "{\"name\":\"review\",\"description\":\"Reviews a change against the team checklist.\","
                + "\"files\":[\"SKILL.md · 109 bytes\",\"assets/dot.png · 70 bytes\","
                + "\"references/checklist.md · 27 bytes\"]}")
        .contains(
            "\"render matches prompts/get\":\"ok\"",
            "\"new file appears live\":\"ok\"",
            "\"markup runs nothing\":\"ok\"",
            "\"csp header\":\"ok\"",
            "\"completion as you type\":\"ok\"",
            "\"images inline\":\"ok\"",
            "\"fits 375 px\":\"ok\"");
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http (page + fetch to /mcp)",
        "modern 2026-07-28",
        "list across pages, filter, keyboard fill with completion, render = prompts/get,"
            + " resources by type, copy, live new file, markup inert, CSP, 375 px, light/dark, axe WCAG 2.1 AA");
    for (String shot : List.of(
        "catalog-1440-light.png",
        "catalog-375-light.png",
        "catalog-1440-dark.png",
        "catalog-375-dark.png",
        "catalog-1440-rendered-light.png")) {
      byte[] png = Files.readAllBytes(SCREENSHOTS.resolve(shot));
      assertThat(png).as(shot).startsWith(0x89, 'P', 'N', 'G');
    }
  }

  @Test
  void withATokenThePageAsksForItAndRefusesAWrongOne() throws Exception {
    Path library = exampleCopy();
    int port = Peers.freePort();
    String token = "catalog-browser-token-5678";
    start(PromptdServer.httpCommand(library, port, "--catalog", "--token", token), port);
    String report = browse(port, library, "--token", token);
    assertThat(report)
        .contains(
            "\"asks for a token\":\"ok\"",
            "\"wrong token refused\":\"ok\"",
            "\"render matches prompts/get\":\"ok\"");
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http, bearer token",
        "modern 2026-07-28",
        "token asked for, wrong token refused, then list, complete, render");
    // The page's files carry no library content and load without the token; the library does not.
    HttpClient http =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> page = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).doesNotContain("summarize");
  }

  /** With OAuth, each visitor's page shows exactly what their token may see. */
  @Test
  void eachOAuthTokenSeesItsOwnView() throws Exception {
    Path library = exampleCopy();
    Path admin = Files.createDirectories(library.resolve("admin"));
    Files.writeString(admin.resolve("_folder.yaml"), "scopes: [admin]\n", UTF_8);
    Files.writeString(admin.resolve("deploy.prompt.md"), """
        ---
        description: Deploy the service.
        ---
        Deploy following the runbook.
        """, UTF_8);
    issuer = new MockOAuth2Server();
    issuer.start();
    int port = Peers.freePort();
    String audience = Peers.mcpUrl(port).toString();
    String alice = issuer
        .issueToken("team", "alice", audience, Map.of("scope", "prompts"), 3600)
        .serialize();
    String bob = issuer
        .issueToken("team", "bob", audience, Map.of("scope", "prompts admin"), 3600)
        .serialize();
    List<String> command = new ArrayList<>(PromptdServer.httpCommand(library, port, "--catalog"));
    command.addAll(
        command.size() - 1,
        List.of(
            "--oauth-issuer", issuer.issuerUrl("team").toString(), "--oauth-scopes", "prompts"));
    start(command, port);
    // The issuer's keys are fetched in the background: until then every token gets 401 (and /readyz
    // 503).
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));
    String alices = browse(port, library, "--token", alice, "--list-only");
    String bobs = browse(port, library, "--token", bob, "--list-only");
    assertThat(alices)
        .contains("\"every prompt listed\":\"ok\"")
        .contains("\"summarize\"")
        .doesNotContain("admin-deploy");
    assertThat(bobs)
        .contains("\"every prompt listed\":\"ok\"")
        .contains("\"summarize\"", "\"admin-deploy\"");
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http, OAuth (mock-oauth2-server)",
        "modern 2026-07-28",
        "two tokens, two views: the admin-scoped prompt listed only for the token with the scope");
  }

  /**
   * Two skills beside the example prompts: a project's own under {@code .claude/skills}, and one
   * under a plain folder with supporting files in folders of their own (one of them an image).
   */
  private static void writeSkills(Path library) throws IOException {
    Path notes = Files.createDirectories(library.resolve(".claude/skills/release-notes"));
    Files.writeString(notes.resolve("SKILL.md"), """
        ---
        name: release-notes
        description: Drafts release notes from merged changes.
        ---
        List what changed.
        """, UTF_8);
    // A name with a space: listed percent-encoded, shown as written.
    Files.writeString(notes.resolve("release template.md"), "## New\n", UTF_8);
    Path review = Files.createDirectories(library.resolve("skills/review/references"));
    Files.writeString(review.resolveSibling("SKILL.md"), """
        ---
        name: review
        description: Reviews a change against the team checklist.
        ---
        Read references/checklist.md.
        """, UTF_8);
    Files.writeString(review.resolve("checklist.md"), "- tests pass\n- docs say it\n", UTF_8);
    // A 1x1 PNG: a file that is no text.
    Files.write(
        Files.createDirectories(review.resolveSibling("assets")).resolve("dot.png"),
        Base64.getDecoder()
            .decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));
  }

  private Path exampleCopy() throws IOException {
    return PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
  }

  private void start(List<String> command, int port) throws Exception {
    servers.add(Peers.startHttp(command, port));
  }

  /**
   * Runs the browser script to its end (at most 240 s) and returns its report; a failed check fails
   * the test.
   */
  private static String browse(int port, Path library, String... flags)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(
        List.of("--url", "http://127.0.0.1:" + port + "/", "--library", library.toString()));
    args.addAll(List.of(flags));
    return runScript("catalog-browser.mjs", args);
  }

  /**
   * Runs the browser script {@code script} of {@code interop/} with {@code args} (and where
   * screenshots go, and the browser) to its end, at most 240 s, and returns its report; a failed
   * check fails the test.
   */
  static String runScript(String script, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        "node", script, "--out", SCREENSHOTS.toString(), "--chromium", CHROMIUM.toString()));
    command.addAll(args);
    Path out = Files.createTempFile("catalog-browser", ".json");
    try {
      Process p = new ProcessBuilder(command)
          .directory(Peers.INTEROP.toFile())
          .redirectOutput(out.toFile())
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      p.getOutputStream().close();
      if (!p.waitFor(240, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the browser script did not finish in 240 s: " + command);
      }
      String report = Files.readString(out, UTF_8);
      assertThat(p.exitValue()).as("browser checks failed; report: " + report).isZero();
      return report;
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
