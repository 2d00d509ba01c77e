package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Gemini CLI 0.61.0 against promptd protected by a real Keycloak, configured with what
 * {@code promptd clients --http URL --client gemini-cli} prints for it: alice's Gemini CLI
 * registers itself (dynamic client registration), bob's uses the pre-registered public client with
 * a fixed callback ({@code --client-id}, {@code --callback-port}). {@code /mcp auth promptd} hands
 * the authorization URL to {@code xdg-open} (a script here that writes it down); a real headless
 * Chromium ({@code interop/keycloak-login.mjs}) logs the person in and follows the redirect to
 * Gemini CLI's callback on localhost; the commands then offered are exactly the person's prompts.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class GeminiCliKeycloakTest {
  private static final List<String> TEAM =
      List.of("standup", "ops-incident-review", "release-notes");

  @TempDir
  static Path dir;

  private static Keycloak keycloak;
  private static Process server;
  private static URI endpoint;
  private static int callbackPort;

  @BeforeAll
  @Timeout(
      value = 5,
      unit = TimeUnit.MINUTES) // Keycloak's first start builds it (a minute or more)
  static void start() throws Exception {
    GeminiCliCellsTest.clientInstalled();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
    Keycloak.require();
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/team"), dir.resolve("team"));
    Files.writeString(library.resolve("ops/_folder.yaml"), "scopes: [ops]\n", UTF_8);
    int port = Peers.freePort();
    endpoint = Peers.mcpUrl(port);
    callbackPort = Peers.freePort();
    keycloak = Keycloak.start(dir.resolve("keycloak.log"));
    keycloak.createRealm(
        endpoint, URI.create("http://localhost:" + callbackPort + "/oauth/callback"));
    // docs/oauth.md's serve line (Start promptd against it), with this test's port and Keycloak.
    server = Peers.startHttp(keycloak.promptdServe(port, library), port);
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));
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
  }

  @Test
  void bobUsesThePreRegisteredClientAndSeesHis() throws Exception {
    String printed = PromptdServer.clients(
        Path.of("promptd"),
        "--http",
        endpoint.toString(),
        "--client-id",
        Keycloak.CLIENT_ID,
        "--callback-port",
        String.valueOf(callbackPort),
        "--client",
        "gemini-cli");
    assertThat(printed).contains("\"clientId\": \"" + Keycloak.CLIENT_ID + "\"");
    assertThat(signIn(Keycloak.BOB, printed)).containsExactly("standup", "release-notes");
    Matrix.record(
        GeminiCliCellsTest.CELL + " + Keycloak 26.7.3",
        "Streamable HTTP, OAuth",
        GeminiCliCellsTest.ERA,
        "promptd clients --client-id --callback-port: the pre-registered public client, its fixed"
            + " redirect URI; bob's 2 prompts offered (no ops)");
  }

  /**
   * docs/oauth.md's {@code promptd clients} commands, run as written against this promptd (its URL
   * for the doc's), print what the doc shows.
   */
  @Test
  void theDocsClientsCommandsPrintWhatTheDocShows() throws Exception {
    Path doc = Peers.ROOT.resolve("docs/oauth.md");
    String heading = "### In every client: `promptd clients`";
    String docUrl = "http://127.0.0.1:3000/mcp";
    List<List<String>> commands =
        DocCommands.commands(DocCommands.block(doc, heading, "sh"), Map.of());
    assertThat(commands).hasSize(2);
    StringBuilder printed = new StringBuilder();
    for (List<String> words : commands) {
      assertThat(words.subList(0, 2)).containsExactly("./promptd", "clients");
      String[] args = words.subList(2, words.size()).stream()
          .map(w -> w.equals(docUrl) ? endpoint.toString() : w)
          .toArray(String[]::new);
      printed.append(PromptdServer.clients(Path.of("promptd"), args)).append('\n');
    }
    assertThat(printed.toString())
        .isEqualTo(DocCommands.block(doc, heading, "text").replace(docUrl, endpoint.toString()));
  }

  /**
   * Starts Gemini CLI with the printed configuration, signs {@code user} in with {@code /mcp auth
   * promptd}, and returns which of the team's prompts it then offers as commands.
   */
  private static List<String> signIn(String user, String printed) throws Exception {
    Path bin = Files.createDirectories(dir.resolve(user + "-bin"));
    Path opened = dir.resolve(user + "-opened-urls.txt");
    Path xdgOpen = bin.resolve("xdg-open");
    Files.writeString(xdgOpen, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + opened + "'\n", UTF_8);
    assertThat(xdgOpen.toFile().setExecutable(true)).isTrue();
    Map<String, Object> entry = new LinkedHashMap<>(((JsonObject) JsonCodec.parse(printed))
        .object("mcpServers")
        .orElseThrow()
        .object("promptd")
        .orElseThrow()
        .members());
    entry.put("timeout", 60_000); // this test's promptd starts without the launcher's cache
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", bin + ":/usr/local/bin:/usr/bin:/bin");
    String cell = "keycloak-" + user;
    Tmux tmux =
        GeminiCliCellsTest.launch(dir.resolve(user), cell, Map.of("promptd", entry), env, null);
    try {
      tmux.awaitText("Type your message", GeminiFamily.START);
      GeminiFamily.submit(tmux, "/mcp auth promptd");
      // Its consent question ("Opening authentication page in your browser. Do you want to
      // continue?"), answered with its first choice.
      tmux.await(
          "Gemini CLI asks before it opens the browser",
          GeminiFamily.STEP,
          s -> s.contains("Do you want to continue") || Files.exists(opened));
      if (!Files.exists(opened)) {
        tmux.keys("Enter");
      }
      String url = openedUrl(opened);
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
      assertThat(login.string("landed").orElseThrow()).endsWith("/oauth/callback");
      tmux.awaitText("Successfully authenticated", GeminiFamily.STEP);
      // The commands are rebuilt when the server's status changes; /mcp refresh makes sure.
      GeminiFamily.submit(tmux, "/mcp refresh");
      Poll.until(
          GeminiFamily.START,
          Duration.ofSeconds(1),
          () -> "Gemini CLI offers /standup after the sign-in",
          () -> GeminiFamily.offered(tmux, "standup", Duration.ofSeconds(5)));
      return TEAM.stream()
          .filter(name -> {
            try {
              return GeminiFamily.offered(tmux, name, Duration.ofSeconds(10));
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          })
          .toList();
    } finally {
      GeminiFamily.close(tmux, GeminiCliCellsTest.CLIENT, cell);
    }
  }

  /** The URL Gemini CLI handed to {@code xdg-open}. */
  private static String openedUrl(Path opened) {
    Poll.await(
        Duration.ofSeconds(30),
        Duration.ofMillis(200),
        "Gemini CLI runs xdg-open with the authorization URL",
        () -> Files.exists(opened));
    try {
      return Files.readAllLines(opened).getFirst().strip();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
