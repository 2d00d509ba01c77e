package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web catalog's lifecycle section in a real headless Chromium
 * ({@code interop/catalog-lifecycle.mjs}), against {@code promptd serve --store URL --label
 * production --label staging --http --catalog --manage} on a real PostgreSQL with tokens from a
 * real authorization server (mock-oauth2-server): a prompt's versions and a diff as the management
 * API answers them, "promote to…" a protected label refused for a token without its scope (the
 * API's message shown, nothing moved) and done with it (the store's label moved, the page at
 * {@code /} following), usage counting the requests made, a recorded promotion (staging → beta)
 * reverted with its button and a second revert of it refused with the API's message, and the
 * staging catalog at {@code /labels/staging/} listing staging's version.
 */
@Tag("system") // starts a real PostgreSQL
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CatalogLifecycleBrowserTest {
  private static final String AUDIENCE = "promptd-catalog-lifecycle";
  private static final String SCOPE = "promote:production";
  private static final int USES = 3;

  @TempDir
  Path dir;

  private final List<Process> servers = new ArrayList<>();
  private MockOAuth2Server issuer;

  @BeforeAll
  static void tools() {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
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
  void versionsDiffPromoteUsageAndALabelsOwnCatalog() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Path library = Files.createDirectories(dir.resolve("lib"));
    Path hello = library.resolve("hello.prompt.md");
    Files.writeString(hello, "---\ndescription: Greets, first wording\n---\nHello\nworld\n", UTF_8);
    promptd("publish", library.toString(), "--store", url, "--label", "production");
    Files.writeString(
        hello, "---\ndescription: Greets, second wording\n---\nHello\nthere\n", UTF_8);
    promptd("publish", library.toString(), "--store", url, "--label", "staging");
    promptd("label", "protect", "production", "--scope", SCOPE, "--store", url);
    promptd("label", "promote", "staging", "beta", "--store", url); // promotion 1, to revert

    issuer = new MockOAuth2Server();
    issuer.start();
    String plain = issuer
        .issueToken("team", "dora", AUDIENCE, Map.of("scope", "prompts promptd.manage"), 3600)
        .serialize();
    String promoter = issuer
        .issueToken(
            "team", "pat", AUDIENCE, Map.of("scope", "prompts promptd.manage " + SCOPE), 3600)
        .serialize();
    int port = Peers.freePort();
    List<String> serve = new ArrayList<>(PromptdServer.cli(
        "serve",
        "--store",
        url,
        "--label",
        "production",
        "--label",
        "staging",
        "--http",
        "--port",
        String.valueOf(port),
        "--catalog",
        "--manage",
        "--manage-scope",
        "promptd.manage",
        "--oauth-issuer",
        issuer.issuerUrl("team").toString(),
        "--oauth-audience",
        AUDIENCE));
    serve.add(1, "-Dpromptd.usage.every-ms=200");
    servers.add(Peers.startHttp(serve, port));
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));

    String report = CatalogBrowserTest.runScript(
        "catalog-lifecycle.mjs",
        List.of(
            "--url",
            "http://127.0.0.1:" + port + "/",
            "--name",
            "hello",
            "--protected",
            "production",
            "--further",
            "staging",
            "--token",
            plain,
            "--promoter",
            promoter,
            "--uses",
            String.valueOf(USES)));
    assertThat(report)
        .contains(
            "\"versions shown\":\"ok\"",
            "\"diff shown\":\"ok\"",
            "\"usage shown\":\"ok\"",
            "\"promote without the scope refused\":\"ok\"",
            "\"nothing moved\":\"ok\"",
            "\"promote with the scope moves the label\":\"ok\"",
            "\"revert a promotion\":\"ok\"",
            "\"the revert is listed\":\"ok\"",
            "\"a refused revert says why\":\"ok\"",
            "\"nothing moved by the refused revert\":\"ok\"",
            "\"label page lists its endpoint\":\"ok\"",
            "\"label page marks its version\":\"ok\"",
            "\"accessibility of the lifecycle section dark\":\"ok\"",
            "\"no page errors or dialogs\":\"ok\"")
        .contains("\"labelPage\":{\"label\":\"staging\",\"version\":2,"
            + "\"prompts\":[{\"name\":\"hello\",\"description\":\"Greets, second wording\"}]}");
    // The store agrees: production moved to version 2, by the promoter's subject.
    String labels = promptd("label", "list", "hello", "--store", url);
    assertThat(labels)
        .contains("hello.prompt.md\tproduction\t2", "hello.prompt.md\tstaging\t2")
        .doesNotContain("beta");
    assertThat(promptd("history", "hello", "--store", url))
        .containsPattern("hello\\.prompt\\.md\tproduction\t1\t2\t\\d+\t\\S+\tapi:pat\n");
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http, OAuth (mock-oauth2-server), --store --manage, two labels",
        "modern 2026-07-28",
        "versions, diff, promote refused without the scope and done with it, usage, a promotion"
            + " reverted, /labels/staging/");
  }

  /** Runs {@code promptd ARGS} to its end; returns what it printed, failing on a non-zero exit. */
  private static String promptd(String... args) throws Exception {
    Process p = new ProcessBuilder(PromptdServer.cli(args))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS))
        .as("promptd " + String.join(" ", args))
        .isTrue();
    assertThat(p.exitValue())
        .as("promptd " + String.join(" ", args) + ": " + out)
        .isZero();
    return out;
  }
}
