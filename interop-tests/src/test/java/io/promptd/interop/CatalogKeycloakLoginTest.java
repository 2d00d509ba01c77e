package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web catalog logs people in at a real Keycloak: {@code promptd serve --store URL --label
 * production --http --catalog --manage --oauth-issuer KEYCLOAK --catalog-client-id promptd-catalog}
 * on a real PostgreSQL, driven in a real headless Chromium by {@code interop/catalog-login.mjs}
 * through Keycloak's own login and consent pages (authorization code with PKCE, the page as a
 * public client). A forged state, a code Keycloak never issued and a declined consent are each said
 * on the page; bob (no {@code ops} role) sees the prompts without the {@code ops} scope and may not
 * promote to the protected {@code production} label (403, the API's message shown); alice sees the
 * {@code ops} prompt too and promotes; her access token (30 s) is refreshed before it expires; "Log
 * out" ends her Keycloak session.
 */
@Tag("system") // starts a real PostgreSQL and Keycloak
@Timeout(value = 8, unit = TimeUnit.MINUTES) // Keycloak's first start builds it (a minute or more)
class CatalogKeycloakLoginTest {
  private static final String CLIENT_ID = "promptd-catalog";

  @TempDir
  Path dir;

  private Keycloak keycloak;
  private Process server;

  @BeforeAll
  static void tools() {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
    Keycloak.require();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (keycloak != null) {
      keycloak.close();
    }
  }

  @Test
  void peopleLogInSeeTheirPromptsPromoteWithTheScopeAndLogOut() throws Exception {
    String store = TestPostgres.get().newDatabaseUrl();
    Path library = Files.createDirectories(dir.resolve("lib"));
    Files.writeString(library.resolve("hello.prompt.md"), "---\ndescription: Greets\n---\nHello\n");
    Files.writeString(library.resolve("notes.prompt.md"), "---\ndescription: Notes\n---\nNotes\n");
    Files.writeString(
        library.resolve("rotate.prompt.md"),
        "---\ndescription: Rotates the keys\nscopes: [ops]\n---\nRotate\n");
    promptd("publish", library.toString(), "--store", store, "--label", "production");
    Files.writeString(library.resolve("hello.prompt.md"), "---\ndescription: Greets\n---\nHi\n");
    promptd("publish", library.toString(), "--store", store, "--label", "staging");
    promptd("label", "protect", "production", "--scope", "ops", "--store", store);

    int port = Peers.freePort();
    URI page = URI.create("http://127.0.0.1:" + port + "/");
    keycloak = Keycloak.start(dir.resolve("keycloak.log"));
    keycloak.createRealm(Peers.mcpUrl(port), URI.create("http://127.0.0.1/unused"));
    keycloak.createClient(catalogClient(port));
    server = Peers.startHttp(serveCommand(store, port), port);
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));

    String report = CatalogBrowserTest.runScript(
        "catalog-login.mjs",
        List.of(
            "--url",
            page.toString(),
            "--password",
            Keycloak.PASSWORD,
            "--allowed",
            Keycloak.ALICE,
            "--allowed-prompts",
            "hello,notes,rotate",
            "--refused",
            Keycloak.BOB,
            "--refused-prompts",
            "hello,notes",
            "--name",
            "hello",
            "--version",
            "2",
            "--protected",
            "production"));
    System.err.println("catalog-login.mjs: " + report); // what docs/engineering/interop.md records
    assertThat(report)
        .contains(
            "\"a forged state is refused\":\"ok\"",
            "\"PKCE S256 asked for\":\"ok\"",
            "\"a refused code exchange is said\":\"ok\"",
            "\"a declined consent is said\":\"ok\"",
            "\"bob sees their prompts\":\"ok\"",
            "\"promote without the scope refused\":\"ok\"",
            "\"alice sees their prompts\":\"ok\"",
            "\"promote with the scope done\":\"ok\"",
            "\"refreshed before expiry\":\"ok\"",
            "\"accessibility of the login panel\":\"ok\"",
            "\"the refusal said\":\"ok\"",
            "\"logged out\":\"ok\"",
            "\"the Keycloak session ended too\":\"ok\"",
            "\"no page errors or dialogs\":\"ok\"");
    // The store agrees: production moved to version 2 by alice, not by bob.
    assertThat(promptd("label", "list", "hello", "--store", store))
        .contains("hello.prompt.md\tproduction\t2");
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog + Keycloak 26.7.3",
        "http, OAuth: authorization code + PKCE in the page (--catalog-client-id), --store --manage",
        "modern 2026-07-28",
        "forged state, unknown code, declined consent said; bob 2 prompts, promote 403; alice 3"
            + " prompts, promote done, token refreshed, log out ends the Keycloak session");
  }

  /**
   * The catalog's client as docs/oauth.md registers it, at this test's port, its access tokens
   * living 30 s so that the page's refresh is seen.
   */
  private static String catalogClient(int port) throws Exception {
    String call = DocCommands.block(
        Peers.ROOT.resolve("docs/oauth.md"), "### The web catalog's client", "text");
    assertThat(call).startsWith("POST /admin/realms/promptd/clients ");
    String pkce = "\"pkce.code.challenge.method\": \"S256\",";
    assertThat(call).contains("\"clientId\": \"" + CLIENT_ID + "\"", pkce);
    return call.substring(call.indexOf('{'))
        .replace("http://127.0.0.1:3000", "http://127.0.0.1:" + port)
        .replace(pkce, pkce + " \"access.token.lifespan\": \"30\",");
  }

  /** The serve command of docs/catalog.md, at this test's store, port and Keycloak. */
  private List<String> serveCommand(String store, int port) throws Exception {
    List<List<String>> commands = DocCommands.commands(
        DocCommands.block(Peers.ROOT.resolve("docs/catalog.md"), "## Logging in (OAuth)", "sh"),
        Map.of("PROMPTD_STORE", store));
    assertThat(commands).hasSize(1);
    List<String> words = commands.getFirst();
    assertThat(words.subList(0, 2)).containsExactly("./promptd", "serve");
    assertThat(words).contains("--catalog-client-id", CLIENT_ID);
    return PromptdServer.cli(words.subList(1, words.size()).stream()
        .map(w -> w.equals("3000") ? String.valueOf(port) : w)
        .map(w ->
            w.equals("http://127.0.0.1:8080/realms/promptd") ? keycloak.issuer().toString() : w)
        .toArray(String[]::new));
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
