package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code against promptd protected by a real Keycloak: added with {@code claude mcp
 * add --transport http}, authenticated from {@code /mcp}; the authorization URL it hands to its
 * browser ({@code BROWSER}) is opened in a real headless Chromium
 * ({@code interop/keycloak-login.mjs}), where the person's login and consent are filled in; the
 * prompts menu then offers exactly the user's prompts.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClaudeCodeKeycloakTest {
  @TempDir
  static Path dir;

  private static final Path OAUTH_MD = Peers.ROOT.resolve("docs/oauth.md");

  private static Keycloak keycloak;
  private static Process server;
  private static URI endpoint;
  private static int callbackPort;
  private static ModelStandIn model;

  @BeforeAll
  @Timeout(
      value = 5,
      unit = TimeUnit.MINUTES) // Keycloak's first start builds it (a minute or more)
  static void start() throws Exception {
    ClaudeCode.require();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
    Keycloak.require();
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/team"), dir.resolve("team"));
    Files.writeString(library.resolve("ops/_folder.yaml"), "scopes: [ops]\n", UTF_8);
    int port = Peers.freePort();
    endpoint = Peers.mcpUrl(port);
    callbackPort = Peers.freePort();
    keycloak = Keycloak.start(dir.resolve("keycloak.log"));
    // The pre-registered client's redirect URI: Claude Code's with --callback-port.
    keycloak.createRealm(endpoint, URI.create("http://localhost:" + callbackPort + "/callback"));
    // docs/oauth.md's serve line (Start promptd against it) as written, with this test's port,
    // Keycloak and library copy. It has no --oauth-scopes: Claude Code registers itself asking for
    // the scopes promptd names (the challenge's, else scopes_supported), and Keycloak then gives
    // the
    // client those alone, not the realm's default scopes that carry ops.
    List<String> serve = keycloak.promptdServe(port, library);
    assertThat(serve).doesNotContain("--oauth-scopes");
    server = Peers.startHttp(serve, port);
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));
    model = ModelStandIn.start(ClaudeCode::anthropic);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (keycloak != null) {
      keycloak.close();
    }
    if (model != null) {
      model.close();
    }
  }

  @Test
  void aliceSignsInFromMcpAndSeesHerPrompts() throws Exception {
    SignIn alice = signIn(Keycloak.ALICE, "keycloak-" + Keycloak.ALICE, addLine());
    assertRegisteredItself(alice);
    assertThat(alice.menu())
        .containsExactlyInAnyOrder("standup", "ops-incident-review", "release-notes");
    Matrix.record(
        "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → promptd + Keycloak 26.7.3",
        "Streamable HTTP, OAuth",
        "—",
        "claude mcp add --transport http; /mcp → Authenticate: DCR, login + consent in headless"
            + " Chromium,"
            + " \"Signed in and connected\"; alice's menu: her 3 prompts (ops included)");
  }

  @Test
  void bobSignsInFromMcpAndSeesHis() throws Exception {
    SignIn bob = signIn(Keycloak.BOB, "keycloak-" + Keycloak.BOB, addLine());
    assertRegisteredItself(bob);
    assertThat(bob.menu()).containsExactlyInAnyOrder("standup", "release-notes");
    Matrix.record(
        "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → promptd + Keycloak 26.7.3",
        "Streamable HTTP, OAuth",
        "—",
        "the same for bob: his 2 prompts (no ops)");
  }

  /**
   * Added with the line {@code promptd clients --client-id promptd-cli --callback-port PORT
   * --client claude-code} prints, Claude Code uses the realm's pre-registered public client: the
   * authorization URL names it and its fixed callback, no client registers itself, no consent page.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES) // two sign-ins
  void withThePreRegisteredClientEachPersonSeesTheirPrompts() throws Exception {
    String line = PromptdServer.clients(
        Path.of("promptd"),
        "--http",
        endpoint.toString(),
        "--client-id",
        Keycloak.CLIENT_ID,
        "--callback-port",
        String.valueOf(callbackPort),
        "--client",
        "claude-code");
    assertThat(line)
        .isEqualTo("claude mcp add --transport http --client-id " + Keycloak.CLIENT_ID
            + " --callback-port " + callbackPort + " promptd " + endpoint);
    int clientsBefore = keycloak.clientCount();
    SignIn alice = signIn(Keycloak.ALICE, "keycloak-client-id-" + Keycloak.ALICE, line);
    SignIn bob = signIn(Keycloak.BOB, "keycloak-client-id-" + Keycloak.BOB, line);
    for (SignIn s : List.of(alice, bob)) {
      assertThat(param(s.url(), "client_id")).isEqualTo(Keycloak.CLIENT_ID);
      assertThat(param(s.url(), "redirect_uri"))
          .isEqualTo("http://localhost:" + callbackPort + "/callback");
      assertThat(s.login().get("consent")).as("no consent page for promptd-cli").isNull();
    }
    assertThat(keycloak.clientCount()).as("no client registered itself").isEqualTo(clientsBefore);
    assertThat(alice.menu())
        .containsExactlyInAnyOrder("standup", "ops-incident-review", "release-notes");
    assertThat(bob.menu()).containsExactlyInAnyOrder("standup", "release-notes");
    Matrix.record(
        "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → promptd + Keycloak 26.7.3",
        "Streamable HTTP, OAuth",
        "—",
        "claude mcp add --transport http --client-id promptd-cli --callback-port PORT (as promptd"
            + " clients prints it); /mcp → Authenticate: the pre-registered public client, no"
            + " registration, no consent; alice's menu 3 prompts, bob's 2");
  }

  /** docs/oauth.md's "In Claude Code" line, with this test's URL for promptd's. */
  private static String addLine() throws Exception {
    String line = DocCommands.block(OAUTH_MD, "### In Claude Code", "sh").strip();
    assertThat(line).isEqualTo("claude mcp add --transport http promptd http://127.0.0.1:3000/mcp");
    return line.replace("http://127.0.0.1:3000/mcp", endpoint.toString());
  }

  /** What one person's sign-in showed: the authorization URL, the login's report, the menu. */
  record SignIn(String url, JsonObject login, Set<String> menu) {}

  /**
   * Adds promptd with {@code setup}, signs {@code user} in from /mcp, and returns what was seen
   * ({@code cell} names the screens in target/client-screens).
   */
  private static SignIn signIn(String user, String cell, String setup) throws Exception {
    Path opened = dir.resolve(cell + "-opened-urls.txt");
    Path browser = dir.resolve(cell + "-browser.sh");
    Files.writeString(browser, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + opened + "'\n", UTF_8);
    browser.toFile().setExecutable(true);
    try (ClaudeCode claude = ClaudeCode.startAfter(
        cell, dir.resolve(cell), setup, model, Map.of("BROWSER", browser.toString()))) {
      claude.send("/mcp");
      claude.await("/mcp lists promptd", Duration.ofSeconds(60), s -> s.contains("promptd"));
      claude.tmux().keys("Enter");
      claude.await(
          "promptd needs sign-in, Authenticate offered",
          Duration.ofSeconds(20),
          s -> s.contains("Status:           ⚠ needs sign-in") && s.contains("❯ Authenticate"));
      claude.tmux().keys("Enter");
      String url = openedUrl(opened);
      // The person: Keycloak's login (and consent) in a real headless Chromium, redirected to
      // Claude Code's callback on localhost.
      JsonObject login = (JsonObject) JsonCodec.parse(CatalogBrowserTest.runScript(
              "keycloak-login.mjs",
              List.of(
                  "--url",
                  url,
                  "--user",
                  user,
                  "--password",
                  Keycloak.PASSWORD,
                  "--callback",
                  "http://localhost:"))
          .strip());
      claude.awaitText("Signed in and connected to promptd.", Duration.ofSeconds(30));
      claude.tmux().keys("Escape");
      assertThat(login.string("callbackText").orElseThrow())
          .startsWith("Authentication successful");
      return new SignIn(url, login, claude.menuCommands("/promptd:"));
    }
  }

  /** A client that registered itself: asked for no scope, it got the realm's default scopes. */
  private static void assertRegisteredItself(SignIn s) throws Exception {
    String id = param(s.url(), "client_id");
    assertThat(id).isNotEqualTo(Keycloak.CLIENT_ID);
    JsonObject registered = keycloak.client(id);
    assertThat(strings(registered.array("defaultClientScopes").orElseThrow()))
        .contains("prompts", "ops");
    assertThat(s.login().get("consent")).as("the consent page was shown").isNotNull();
  }

  /** The query parameter {@code name} of {@code url}, decoded. */
  private static String param(String url, String name) {
    Matcher m = Pattern.compile("[?&]" + name + "=([^&]+)").matcher(url);
    assertThat(m.find()).as(name + " in " + url).isTrue();
    return URLDecoder.decode(m.group(1), UTF_8);
  }

  private static List<String> strings(JsonArray a) {
    return a.elements().stream().map(j -> ((JsonString) j).value()).toList();
  }

  /**
   * The URL Claude Code handed to the browser ({@code BROWSER}); it shows it on screen too, wrapped
   * across lines.
   */
  private static String openedUrl(Path opened) {
    Poll.await(
        Duration.ofSeconds(20),
        Duration.ofMillis(200),
        "Claude Code runs BROWSER with the authorization URL",
        () -> Files.exists(opened));
    try {
      return Files.readAllLines(opened).getFirst().strip();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
