package io.promptd.catalog.links;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.net.URLDecoder;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each link and command, taken apart the way its client takes it apart (VS Code:
 * {@code JSON.parse(decodeURIComponent( query))}, then {@code {name, inputs, ...config}}; Cursor:
 * the {@code name} and {@code config} query parameters, the latter base64 of the {@code mcp.json}
 * entry), decodes to exactly the entry that client's documentation shows.
 */
class InstallLinksTest {
  private static final InstallLinks.Stdio LAUNCHER = new InstallLinks.Stdio(
      "promptd", List.of("/opt/promptd/bin/promptd", "serve", "/srv/prompts"));
  private static final InstallLinks.Http TEAM = new InstallLinks.Http(
      "promptd", URI.create("https://prompts.example.com/mcp"), "PROMPTD_TOKEN");

  @Test
  void vscodeLinkOverStdioDecodesToItsServerEntry() {
    Map<String, Json> definition = vscodeDefinition(InstallLinks.vscodeLink(LAUNCHER));
    assertThat(definition.remove("name")).isEqualTo(JsonCodec.parse("\"promptd\""));
    assertThat(definition).doesNotContainKey("inputs");
    assertThat(new JsonObject(definition))
        .isEqualTo(
            json(
                "{\"type\":\"stdio\",\"command\":\"/opt/promptd/bin/promptd\",\"args\":[\"serve\",\"/srv/prompts\"]}"))
        .isEqualTo(InstallLinks.vscodeServer(LAUNCHER));
  }

  @Test
  void vscodeLinkOverHttpAsksForTheTokenAndHoldsNone() {
    String link = InstallLinks.vscodeLink(TEAM);
    Map<String, Json> definition = vscodeDefinition(link);
    assertThat(definition.remove("name")).isEqualTo(JsonCodec.parse("\"promptd\""));
    Json inputs = definition.remove("inputs");
    assertThat(inputs)
        .isEqualTo(
            JsonCodec.parse(
                "[{\"type\":\"promptString\",\"id\":\"promptd-token\","
                    + "\"description\":\"The bearer token of https://prompts.example.com/mcp\",\"password\":true}]"))
        .isEqualTo(InstallLinks.vscodeInputs(TEAM));
    assertThat(new JsonObject(definition))
        .isEqualTo(json("{\"type\":\"http\",\"url\":\"https://prompts.example.com/mcp\","
            + "\"headers\":{\"Authorization\":\"Bearer ${input:promptd-token}\"}}"));
  }

  @Test
  void codeAddMcpTakesTheSameDefinitionAsTheLink() {
    for (InstallLinks.Server s : List.of(LAUNCHER, TEAM, spaced())) {
      String command = InstallLinks.vscodeCommand(s);
      assertThat(command).startsWith("code --add-mcp '").endsWith("'");
      String word = command
          .substring("code --add-mcp '".length(), command.length() - 1)
          .replace("'\\''", "'");
      assertThat(JsonCodec.parse(word))
          .as(command)
          .isEqualTo(new JsonObject(vscodeDefinition(InstallLinks.vscodeLink(s))));
    }
  }

  @Test
  void cursorLinkOverStdioDecodesToItsMcpJsonEntry() {
    Map<String, String> query = cursorQuery(InstallLinks.cursorLink(LAUNCHER));
    assertThat(query).containsOnlyKeys("name", "config").containsEntry("name", "promptd");
    assertThat(base64Json(query.get("config")))
        .isEqualTo(json(
            "{\"command\":\"/opt/promptd/bin/promptd\",\"args\":[\"serve\",\"/srv/prompts\"]}"))
        .isEqualTo(InstallLinks.cursorServer(LAUNCHER));
  }

  @Test
  void cursorLinkOverHttpReadsTheTokenFromTheEnvironment() {
    Map<String, String> query = cursorQuery(InstallLinks.cursorLink(TEAM));
    assertThat(base64Json(query.get("config")))
        .isEqualTo(json("{\"url\":\"https://prompts.example.com/mcp\","
            + "\"headers\":{\"Authorization\":\"Bearer ${env:PROMPTD_TOKEN}\"}}"));
  }

  @Test
  void withoutATokenThereIsNoHeaderAnywhere() {
    InstallLinks.Http open =
        new InstallLinks.Http("promptd", URI.create("http://127.0.0.1:3000/mcp"), null);
    assertThat(base64Json(cursorQuery(InstallLinks.cursorLink(open)).get("config")))
        .isEqualTo(json("{\"url\":\"http://127.0.0.1:3000/mcp\"}"));
    assertThat(new JsonObject(vscodeDefinition(InstallLinks.vscodeLink(open))))
        .isEqualTo(
            json("{\"name\":\"promptd\",\"type\":\"http\",\"url\":\"http://127.0.0.1:3000/mcp\"}"));
    assertThat(InstallLinks.claudeCommand(open))
        .isEqualTo("claude mcp add --transport http promptd http://127.0.0.1:3000/mcp");
  }

  @Test
  void claudeCodeLines() {
    assertThat(InstallLinks.claudeCommand(LAUNCHER))
        .isEqualTo(
            "claude mcp add --scope user promptd -- /opt/promptd/bin/promptd serve /srv/prompts");
    assertThat(
            InstallLinks.claudeCommand(InstallLinks.Stdio.npx("promptd", List.of("/srv/prompts"))))
        .isEqualTo("claude mcp add --scope user promptd -- npx -y promptd serve /srv/prompts");
    assertThat(InstallLinks.claudeCommand(TEAM))
        .isEqualTo("claude mcp add --transport http promptd https://prompts.example.com/mcp"
            + " --header \"Authorization: Bearer $PROMPTD_TOKEN\"");
    assertThat(InstallLinks.claudeCommand(spaced()))
        .isEqualTo(
            "claude mcp add --scope user lib -- npx -y promptd serve '/home/ann/my '\\''prompts'\\'' é'");
  }

  @Test
  void awkwardPathsSurviveEveryEncodingAndTheLinksHoldOnlySafeCharacters() {
    InstallLinks.Stdio s = spaced();
    String vscode = InstallLinks.vscodeLink(s);
    String cursor = InstallLinks.cursorLink(s);
    assertThat(vscode.substring("vscode:mcp/install?".length())).matches("[A-Za-z0-9%._~-]+");
    assertThat(cursor.substring(cursor.indexOf('?') + 1)).matches("[A-Za-z0-9%._~&=-]+");
    JsonObject entry = json(
        "{\"command\":\"npx\",\"args\":[\"-y\",\"promptd\",\"serve\",\"/home/ann/my 'prompts' é\"]}");
    assertThat(base64Json(cursorQuery(cursor).get("config"))).isEqualTo(entry);
    Map<String, Json> definition = vscodeDefinition(vscode);
    definition.remove("name");
    assertThat(new JsonObject(definition))
        .isEqualTo(entry.toBuilder().put("type", "stdio").build());
  }

  @Test
  void badServersAreRefusedWithWhere() {
    assertThatThrownBy(() -> new InstallLinks.Stdio("my server", List.of("promptd")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "InstallLinks.Stdio: the name must be 1-64 letters, digits, '_' or '-', not 'my server'");
    assertThatThrownBy(() -> new InstallLinks.Stdio("promptd", List.of()))
        .hasMessage("InstallLinks.Stdio: the command is empty");
    assertThatThrownBy(() -> new InstallLinks.Http("promptd", URI.create("ftp://h/mcp"), null))
        .hasMessageContaining("InstallLinks.Http: the URL must be http or https");
    assertThatThrownBy(
            () -> new InstallLinks.Http("promptd", URI.create("https://ann:pw@h/mcp"), null))
        .hasMessageContaining("no user");
    assertThatThrownBy(() -> new InstallLinks.Http("promptd", URI.create("https://h/mcp"), "A B"))
        .hasMessageContaining("environment variable's name");
  }

  /** A folder with a space, quotes and a letter outside ASCII, started through npx. */
  private static InstallLinks.Stdio spaced() {
    return InstallLinks.Stdio.npx("lib", List.of("/home/ann/my 'prompts' é"));
  }

  /** What VS Code's handler parses: the JSON after {@code vscode:mcp/install?}, percent-decoded. */
  private static Map<String, Json> vscodeDefinition(String link) {
    assertThat(link).startsWith("vscode:mcp/install?");
    String query = link.substring("vscode:mcp/install?".length());
    assertThat(query).doesNotContain("+"); // URLDecoder below would read it as a space
    JsonObject parsed = (JsonObject) JsonCodec.parse(URLDecoder.decode(query, UTF_8));
    return new LinkedHashMap<>(parsed.members());
  }

  /**
   * Cursor's link taken apart: scheme, handler and path checked, the query's parameters decoded.
   */
  private static Map<String, String> cursorQuery(String link) {
    URI uri = URI.create(link);
    assertThat(uri.getScheme()).isEqualTo("cursor");
    assertThat(uri.getHost()).isEqualTo("anysphere.cursor-deeplink");
    assertThat(uri.getPath()).isEqualTo("/mcp/install");
    Map<String, String> query = new LinkedHashMap<>();
    for (String pair : uri.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      query.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), UTF_8));
    }
    return query;
  }

  private static Json base64Json(String base64) {
    return JsonCodec.parse(new String(Base64.getDecoder().decode(base64), UTF_8));
  }

  private static JsonObject json(String text) {
    return (JsonObject) JsonCodec.parse(text);
  }
}
