package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd clients}: every client's configuration for a library, with absolute paths over
 * stdio and the token taken from an environment variable over HTTP; {@code --client ID} prints one,
 * in the form its file holds. The real-client tests (interop-tests) configure the clients from this
 * output.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientsTest {
  @TempDir
  Path dir;

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(Clients.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8)))
        .isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void everyClientGetsAStdioConfigurationWithAbsolutePaths() {
    String all = run(dir.toString());
    String abs = dir.toAbsolutePath().normalize().toString();
    for (Clients.Client c : Clients.ALL) {
      assertThat(all).contains("## " + c.title() + " (" + c.id() + ")");
    }
    assertThat(all)
        .contains("claude mcp add --scope user promptd -- " + Clients.launcher() + " serve " + abs);
    JsonObject gemini = (JsonObject) JsonCodec.parse(run("--client", "gemini-cli", dir.toString()));
    assertThat(JsonCodec.write(gemini))
        .isEqualTo("{\"mcpServers\":{\"promptd\":{\"command\":\"" + Clients.launcher()
            + "\",\"args\":[\"serve\",\"" + abs + "\"]}}}");
    JsonObject opencode =
        (JsonObject) JsonCodec.parse(run("--client", "opencode", "--name", "lib", dir.toString()));
    assertThat(JsonCodec.write(opencode.object("mcp").orElseThrow()))
        .isEqualTo("{\"lib\":{\"type\":\"local\"," + "\"command\":[\"" + Clients.launcher()
            + "\",\"serve\",\"" + abs + "\"],\"enabled\":true}}");
  }

  @Test
  void copilotCliGetsThePromptsAsTools() {
    JsonObject copilot =
        (JsonObject) JsonCodec.parse(run("--client", "copilot-cli", dir.toString()));
    assertThat(JsonCodec.write(copilot
            .object("mcpServers")
            .orElseThrow()
            .object("promptd")
            .orElseThrow()
            .get("args")))
        .isEqualTo(
            "[\"serve\",\"--prompts-as-tools\",\"" + dir.toAbsolutePath().normalize() + "\"]");
  }

  @Test
  void codexGetsTomlWithThePromptsAsTools() {
    Path folder = dir.resolve("my \"prompts\"");
    String abs = folder.toAbsolutePath().normalize().toString().replace("\"", "\\\"");
    assertThat(folder.toFile().mkdir()).isTrue();
    assertThat(run("--client", "codex", folder.toString()))
        .isEqualTo("[mcp_servers.promptd]\n"
            + "command = \"" + Clients.launcher() + "\"\n"
            + "args = [\"serve\", \"--prompts-as-tools\", \"" + abs + "\"]\n");
    assertThat(run(
            "--client",
            "codex",
            "--http",
            "http://127.0.0.1:3000/mcp",
            "--token-env",
            "TEAM_TOKEN"))
        .isEqualTo("""
            [mcp_servers.promptd]
            url = "http://127.0.0.1:3000/mcp"
            bearer_token_env_var = "TEAM_TOKEN"
            """);
  }

  @Test
  void overHttpTheTokenComesFromTheEnvironmentAndIsNeverPrinted() {
    String all = run("--http", "http://127.0.0.1:3000/mcp", "--token-env", "TEAM_TOKEN");
    assertThat(all)
        .contains(
            "claude mcp add --transport http promptd http://127.0.0.1:3000/mcp --header"
                + " \"Authorization: Bearer $TEAM_TOKEN\"",
            "\"Bearer $TEAM_TOKEN\"",
            "\"Bearer {env:TEAM_TOKEN}\"",
            "\"Bearer ${input:promptd-token}\"")
        .doesNotContain("Claude Desktop (claude-desktop)");
    JsonObject vscode = (JsonObject)
        JsonCodec.parse(run("--http", "http://127.0.0.1:3000/mcp", "--client", "vscode"));
    assertThat(vscode
            .object("servers")
            .orElseThrow()
            .object("promptd")
            .orElseThrow()
            .string("type"))
        .hasValue("http");
  }

  @Test
  void withOAuthEveryClientGetsTheUrlAloneAndRegistersItself() {
    String url = "http://127.0.0.1:3000/mcp";
    String all = run("--http", url, "--oauth");
    assertThat(all)
        .contains(
            "where people sign in with OAuth",
            "dynamic client registration",
            "claude mcp add --transport http promptd " + url + "\n",
            "# then sign in: in Gemini CLI: /mcp auth promptd",
            "# then sign in: opencode mcp auth promptd",
            "# then sign in: codex mcp login promptd")
        .doesNotContain("Bearer", "Authorization", "PROMPTD_TOKEN", "Claude Desktop (");
    assertThat(JsonCodec.parse(run("--http", url, "--oauth", "--client", "gemini-cli")))
        .isEqualTo(JsonCodec.parse("{\"mcpServers\":{\"promptd\":{\"httpUrl\":\"" + url
            + "\",\"oauth\":{\"enabled\":true,\"scopes\":[]}}}}"));
    assertThat(JsonCodec.parse(run("--http", url, "--oauth", "--client", "opencode")))
        .isEqualTo(JsonCodec.parse("{\"$schema\":\"https://opencode.ai/config.json\",\"mcp\":"
            + "{\"promptd\":{\"type\":\"remote\",\"url\":\"" + url + "\",\"enabled\":true}}}"));
    assertThat(run("--http", url, "--oauth", "--client", "codex"))
        .isEqualTo("[mcp_servers.promptd]\nurl = \"" + url + "\"\n");
  }

  @Test
  void aPreRegisteredClientIsNamedWithItsCallbacksInEachClientsOwnForm() {
    String url = "http://127.0.0.1:3000/mcp";
    String all = run("--http", url, "--client-id", "promptd-cli", "--callback-port", "9123");
    assertThat(all)
        .contains(
            "every client uses the public client promptd-cli",
            "http://localhost:9123/callback (Claude Code)",
            "http://localhost:9123/oauth/callback (Gemini CLI)",
            "http://localhost:7777/oauth/callback (Qwen Code)",
            "http://127.0.0.1:9123/mcp/oauth/callback (opencode)")
        .doesNotContain("Bearer");
    assertThat(run("--http", url, "--client-id", "promptd-cli", "--client", "claude-code"))
        .isEqualTo("claude mcp add --transport http --client-id promptd-cli --callback-port "
            + SignIn.DEFAULT_CALLBACK_PORT + " promptd " + url + "\n");
    JsonObject gemini = (JsonObject) JsonCodec.parse(run(
        "--http",
        url,
        "--client-id",
        "promptd-cli",
        "--callback-port",
        "9123",
        "--client",
        "gemini-cli"));
    assertThat(JsonCodec.write(gemini
            .object("mcpServers")
            .orElseThrow()
            .object("promptd")
            .orElseThrow()
            .get("oauth")))
        .isEqualTo("{\"enabled\":true,\"scopes\":[],\"clientId\":\"promptd-cli\","
            + "\"redirectUri\":\"http://localhost:9123/oauth/callback\"}");
    JsonObject qwen = (JsonObject) JsonCodec.parse(run(
        "--http",
        url,
        "--client-id",
        "promptd-cli",
        "--callback-port",
        "9123",
        "--client",
        "qwen-code"));
    assertThat(JsonCodec.write(qwen.object("mcpServers")
            .orElseThrow()
            .object("promptd")
            .orElseThrow()
            .get("oauth")))
        .contains("http://localhost:7777/oauth/callback");
    JsonObject opencode = (JsonObject) JsonCodec.parse(run(
        "--http",
        url,
        "--client-id",
        "promptd-cli",
        "--callback-port",
        "9123",
        "--client",
        "opencode"));
    assertThat(JsonCodec.write(
            opencode.object("mcp").orElseThrow().object("promptd").orElseThrow().get("oauth")))
        .isEqualTo("{\"clientId\":\"promptd-cli\",\"callbackPort\":9123}");
    JsonObject cursor = (JsonObject)
        JsonCodec.parse(run("--http", url, "--client-id", "promptd-cli", "--client", "cursor"));
    assertThat(JsonCodec.write(
            cursor.object("mcpServers").orElseThrow().object("promptd").orElseThrow()))
        .isEqualTo("{\"url\":\"" + url + "\",\"auth\":{\"CLIENT_ID\":\"promptd-cli\"}}");
    assertThat(run("--http", url, "--client-id", "promptd-cli", "--client", "codex"))
        .isEqualTo("[mcp_servers.promptd]\nurl = \"" + url + "\"\n\n"
            + "[mcp_servers.promptd.oauth]\nclient_id = \"promptd-cli\"\n");
  }

  @Test
  void oauthOptionsThatContradictEachOtherAreUsageErrors() {
    String url = "http://127.0.0.1:3000/mcp";
    assertThatThrownBy(() -> run("--oauth", dir.toString())).hasMessageContaining("give --http");
    assertThatThrownBy(() -> run("--http", url, "--oauth", "--token-env", "T"))
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> run("--http", url, "--callback-port", "9000"))
        .hasMessageContaining("--client-id ID too");
    assertThatThrownBy(() -> run("--http", url, "--client-id", "x", "--callback-port", "0"))
        .hasMessageContaining("1 to 65535");
    assertThatThrownBy(() -> run("--http", url, "--client-id", " "))
        .hasMessageContaining("public client");
  }

  @Test
  void mistakesAreUsageErrors() {
    assertThatThrownBy(() -> run("--http", "http://h/mcp", dir.toString()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> run("--client", "emacs", dir.toString()))
        .hasMessageContaining("no client 'emacs'");
    assertThatThrownBy(() -> run("--http", "ftp://x")).hasMessageContaining("http:// or https://");
    assertThatThrownBy(() -> run("--token-env", "A B", dir.toString()))
        .hasMessageContaining("variable");
    assertThatThrownBy(() -> run("--http", "http://h/mcp", "--client", "claude-desktop"))
        .hasMessageContaining("takes no HTTP server");
    assertThatThrownBy(() -> run(dir.resolve("missing").toString()))
        .hasMessageContaining("not a folder");
  }
}
