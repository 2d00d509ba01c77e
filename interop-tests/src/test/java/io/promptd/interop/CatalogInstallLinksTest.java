package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web catalog's "Add to VS Code", "Add to Cursor" and Claude Code command, in a real headless
 * Chromium ({@code interop/catalog-install-links.mjs}) on {@code promptd serve --http --catalog
 * --token}: the buttons are there, and their hrefs, as the browser reads them, decode (as VS Code
 * and Cursor decode them) to the HTTP entry each client's documentation shows for this server, with
 * the token read from {@code $PROMPTD_TOKEN} or asked for — never the token; they are the links
 * {@code promptd clients --http URL} prints.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CatalogInstallLinksTest {
  private static final String TOKEN = "install-links-token-9137";

  @TempDir
  Path dir;

  private Process server;

  @BeforeAll
  static void tools() {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void theButtonsAddThisServerWithTheTokenFromTheClientsSide() throws Exception {
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    int port = Peers.freePort();
    server = Peers.startHttp(
        PromptdServer.httpCommand(library, port, "--catalog", "--token", TOKEN), port);
    String mcp = "http://127.0.0.1:" + port + "/mcp";
    JsonObject report = (JsonObject) JsonCodec.parse(CatalogBrowserTest.runScript(
        "catalog-install-links.mjs",
        List.of("--url", "http://127.0.0.1:" + port + "/", "--token", TOKEN)));
    assertThat(JsonCodec.write(report.get("checks")))
        .contains(
            "\"folded at first\":\"ok\"",
            "\"buttons and command shown\":\"ok\"",
            "\"no token in the page\":\"ok\"",
            "\"fits 375 px open\":\"ok\"",
            "\"accessibility open light\":\"ok\"",
            "\"accessibility open dark\":\"ok\"");
    JsonObject links = report.object("links").orElseThrow();
    assertThat(links.string("url")).hasValue(mcp);

    // VS Code: JSON.parse(decodeURIComponent(query)), then {name, inputs, ...config}.
    String vscode = links.string("vscode").orElseThrow();
    assertThat(vscode).startsWith("vscode:mcp/install?");
    Map<String, Json> definition = new LinkedHashMap<>(((JsonObject) JsonCodec.parse(
            URLDecoder.decode(vscode.substring("vscode:mcp/install?".length()), UTF_8)))
        .members());
    assertThat(definition.remove("name")).isEqualTo(JsonCodec.parse("\"promptd\""));
    assertThat(definition.remove("inputs"))
        .isEqualTo(JsonCodec.parse("[{\"type\":\"promptString\",\"id\":\"promptd-token\","
            + "\"description\":\"The bearer token of " + mcp + "\",\"password\":true}]"));
    assertThat(new JsonObject(definition))
        .isEqualTo(JsonCodec.parse("{\"type\":\"http\",\"url\":\"" + mcp + "\","
            + "\"headers\":{\"Authorization\":\"Bearer ${input:promptd-token}\"}}"));

    // Cursor: name and config, the latter base64 of its mcp.json entry.
    URI cursor = URI.create(links.string("cursor").orElseThrow());
    assertThat(cursor.getScheme() + "://" + cursor.getHost() + cursor.getPath())
        .isEqualTo("cursor://anysphere.cursor-deeplink/mcp/install");
    Map<String, String> query = new LinkedHashMap<>();
    for (String pair : cursor.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      query.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), UTF_8));
    }
    assertThat(query).containsOnlyKeys("name", "config").containsEntry("name", "promptd");
    assertThat(JsonCodec.parse(new String(Base64.getDecoder().decode(query.get("config")), UTF_8)))
        .isEqualTo(JsonCodec.parse("{\"url\":\"" + mcp + "\","
            + "\"headers\":{\"Authorization\":\"Bearer ${env:PROMPTD_TOKEN}\"}}"));

    assertThat(links.string("claude"))
        .hasValue("claude mcp add --transport http promptd " + mcp
            + " --header \"Authorization: Bearer $PROMPTD_TOKEN\"");

    // The same links as the command line prints for this server.
    Path launcher = PromptdServer.launcher(dir.resolve("bin"));
    assertThat(PromptdServer.clients(launcher, "--http", mcp, "--client", "vscode-link"))
        .isEqualTo(vscode);
    assertThat(PromptdServer.clients(launcher, "--http", mcp, "--client", "cursor-link"))
        .isEqualTo(cursor.toString());
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http, bearer token",
        "modern 2026-07-28",
        "Add to VS Code / Add to Cursor / Claude Code command: hrefs decode to each client's HTTP entry, no token");
  }
}
