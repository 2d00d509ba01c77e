package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd clients}' install links and commands: each link, decoded the way its client
 * decodes it, is exactly the server entry of the configuration file {@code promptd clients} prints
 * for that client (VS Code: the name, the {@code servers} entry and the {@code inputs}; Cursor: the
 * {@code mcpServers} entry), over stdio and over HTTP; the npx forms for promptd from npm;
 * {@code --npx} for every client.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientLinksTest {
  private static final String URL = "http://127.0.0.1:3000/mcp";

  @TempDir
  Path dir;

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(Clients.run(List.of(args), new PrintStream(out, true, UTF_8))).isZero();
    return out.toString(UTF_8).strip();
  }

  @Test
  void theVscodeLinkAndCommandHoldWhatMcpJsonHolds() {
    for (List<String> target : List.of(List.of(dir.toString()), List.of("--http", URL))) {
      String[] args = target.toArray(String[]::new);
      JsonObject file = (JsonObject) JsonCodec.parse(run(with(args, "--client", "vscode")));
      JsonObject entry = file.object("servers").orElseThrow().object("promptd").orElseThrow();
      Map<String, Json> fromLink = vscodeLink(run(with(args, "--client", "vscode-link")));
      Map<String, Json> fromCommand = addMcp(run(with(args, "--client", "vscode-cli")));
      assertThat(fromCommand).as("code --add-mcp").isEqualTo(fromLink);
      assertThat(fromLink.remove("name")).isEqualTo(JsonCodec.parse("\"promptd\""));
      Json inputs = fromLink.remove("inputs");
      assertThat(new JsonObject(fromLink)).as(String.join(" ", target)).isEqualTo(entry);
      assertThat(inputs).isEqualTo(file.get("inputs"));
    }
  }

  @Test
  void theCursorLinkHoldsWhatMcpJsonHolds() {
    for (List<String> target : List.of(List.of(dir.toString()), List.of("--http", URL))) {
      String[] args = target.toArray(String[]::new);
      JsonObject file = (JsonObject) JsonCodec.parse(run(with(args, "--client", "cursor")));
      Map<String, String> query = cursorQuery(run(with(args, "--client", "cursor-link")));
      assertThat(query).containsEntry("name", "promptd");
      assertThat(
              JsonCodec.parse(new String(Base64.getDecoder().decode(query.get("config")), UTF_8)))
          .as(String.join(" ", target))
          .isEqualTo(file.object("mcpServers").orElseThrow().get("promptd"));
    }
  }

  @Test
  void overHttpTheLinksNameTheVariableAndHoldNoToken() {
    String cursor = run("--http", URL, "--token-env", "TEAM_TOKEN", "--client", "cursor-link");
    String config =
        new String(Base64.getDecoder().decode(cursorQuery(cursor).get("config")), UTF_8);
    assertThat(config)
        .isEqualTo("{\"url\":\"" + URL
            + "\",\"headers\":{\"Authorization\":\"Bearer ${env:TEAM_TOKEN}\"}}");
    assertThat(vscodeLink(run("--http", URL, "--client", "vscode-link")).get("headers"))
        .isEqualTo(JsonCodec.parse("{\"Authorization\":\"Bearer ${input:promptd-token}\"}"));
  }

  @Test
  void theFullListingEndsWithTheNpxForms() {
    String abs = dir.toAbsolutePath().normalize().toString();
    String all = run(dir.toString());
    String npx = all.substring(all.indexOf("## From npm, with nothing installed"));
    assertThat(npx)
        .startsWith("## From npm, with nothing installed (npx -y promptd serve " + abs
            + "; every client: promptd clients --npx DIR...)")
        .contains(
            "{\"promptd\":{\"command\":\"npx\",\"args\":[\"-y\",\"promptd\",\"serve\",\"" + abs
                + "\"]}}",
            "claude mcp add --scope user promptd -- npx -y promptd serve " + abs,
            "vscode:mcp/install?",
            "code --add-mcp '",
            "cursor://anysphere.cursor-deeplink/mcp/install?name=promptd&config=");
    assertThat(run("--http", URL)).doesNotContain("From npm");
  }

  @Test
  void npxMakesEveryClientStartPromptdFromNpm() {
    String abs = dir.toAbsolutePath().normalize().toString();
    assertThat(run("--npx", "--client", "claude-code", dir.toString()))
        .isEqualTo("claude mcp add --scope user promptd -- npx -y promptd serve " + abs);
    JsonObject gemini =
        (JsonObject) JsonCodec.parse(run("--npx", "--client", "gemini-cli", dir.toString()));
    assertThat(JsonCodec.write(gemini))
        .isEqualTo(
            "{\"mcpServers\":{\"promptd\":{\"command\":\"npx\",\"args\":[\"-y\",\"promptd\",\"serve\",\""
                + abs + "\"]}}}");
    JsonObject copilot =
        (JsonObject) JsonCodec.parse(run("--npx", "--client", "copilot-cli", dir.toString()));
    assertThat(JsonCodec.write(copilot
            .object("mcpServers")
            .orElseThrow()
            .object("promptd")
            .orElseThrow()
            .get("args")))
        .isEqualTo("[\"-y\",\"promptd\",\"serve\",\"--prompts-as-tools\",\"" + abs + "\"]");
    assertThat(run("--npx", dir.toString())).doesNotContain("## From npm");
    assertThatThrownBy(() -> run("--npx", "--http", URL))
        .isInstanceOf(UsageException.class)
        .hasMessage("clients: --npx is for folders (the client starts promptd), not --http");
  }

  private static String[] with(String[] args, String... more) {
    String[] all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  /** What VS Code's URL handler parses: {@code JSON.parse(decodeURIComponent(query))}. */
  private static Map<String, Json> vscodeLink(String link) {
    assertThat(link).startsWith("vscode:mcp/install?");
    String query = link.substring("vscode:mcp/install?".length());
    assertThat(query).matches("[A-Za-z0-9%._~-]+");
    return new LinkedHashMap<>(
        ((JsonObject) JsonCodec.parse(URLDecoder.decode(query, UTF_8))).members());
  }

  /** What {@code code --add-mcp} parses: the one single-quoted word after the option. */
  private static Map<String, Json> addMcp(String command) {
    assertThat(command).startsWith("code --add-mcp '").endsWith("'");
    String word =
        command.substring("code --add-mcp '".length(), command.length() - 1).replace("'\\''", "'");
    return new LinkedHashMap<>(((JsonObject) JsonCodec.parse(word)).members());
  }

  /** Cursor's link: its handler and path checked, its query's parameters decoded. */
  private static Map<String, String> cursorQuery(String link) {
    URI uri = URI.create(link);
    assertThat(uri.getScheme() + "://" + uri.getHost() + uri.getPath())
        .isEqualTo("cursor://anysphere.cursor-deeplink/mcp/install");
    Map<String, String> query = new LinkedHashMap<>();
    for (String pair : uri.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      query.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), UTF_8));
    }
    return query;
  }
}
