package io.promptd.cli;

import io.promptd.catalog.links.InstallLinks;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * Each client's configuration for an HTTP server that signs people in with OAuth ({@link SignIn}):
 * the URL alone, so that the client finds the identity provider through the server and registers
 * itself, or, given a pre-registered public client, that client's id and a fixed callback — never a
 * token. {@link Clients} names the form of each client in its row.
 */
final class OAuthForms {
  private OAuthForms() {}

  private static SignIn signIn(Clients.Target t) {
    return Objects.requireNonNull(t.signIn(), "an OAuth form for a target without sign-in");
  }

  private static URI url(Clients.Target t) {
    return Objects.requireNonNull(t.url(), "an OAuth form for a stdio target");
  }

  /** The server as the install links take it: its URL, with no header. */
  static InstallLinks.Http server(Clients.Target t) {
    return new InstallLinks.Http(t.name(), url(t), null);
  }

  static String claude(Clients.Target t) {
    SignIn s = signIn(t);
    if (s.registers()) {
      return InstallLinks.claudeCommand(server(t));
    }
    return "claude mcp add --transport http --client-id " + ConfigText.shell(List.of(s.clientId()))
        + " --callback-port " + s.callbackPort() + " " + t.name() + " "
        + ConfigText.shell(List.of(url(t).toString()));
  }

  static String gemini(Clients.Target t) {
    return geminiFamily(t, signIn(t).callbackPort());
  }

  static String qwen(Clients.Target t) {
    return geminiFamily(t, SignIn.QWEN_CALLBACK_PORT);
  }

  /**
   * Gemini CLI and Qwen Code: {@code httpUrl} and an {@code oauth} entry that asks for no scope —
   * left to themselves they ask for every scope in the provider's {@code scopes_supported}, which a
   * provider refuses (Keycloak: {@code invalid_scope}, and its registration policy rejects the
   * client) — with, for a given client, its id and fixed callback.
   */
  private static String geminiFamily(Clients.Target t, int callbackPort) {
    SignIn s = signIn(t);
    JsonObject.Builder oauth =
        JsonObject.builder().put("enabled", true).put("scopes", JsonArray.ofStrings(List.of()));
    if (!s.registers()) {
      oauth
          .put("clientId", s.clientId())
          .put("redirectUri", "http://localhost:" + callbackPort + "/oauth/callback");
    }
    return mcpServers(
        t,
        JsonObject.builder()
            .put("httpUrl", url(t).toString())
            .put("oauth", oauth.build())
            .build());
  }

  static String vscode(Clients.Target t) {
    return ConfigText.json(JsonObject.builder()
        .put(
            "servers",
            JsonObject.builder()
                .put(t.name(), InstallLinks.vscodeServer(server(t)))
                .build())
        .build());
  }

  static String vscodeLink(Clients.Target t) {
    return InstallLinks.vscodeLink(server(t));
  }

  static String vscodeCommand(Clients.Target t) {
    return InstallLinks.vscodeCommand(server(t));
  }

  /** Cursor's entry: the URL, and for a given client its {@code auth} ({@code CLIENT_ID}). */
  private static JsonObject cursorServer(Clients.Target t) {
    SignIn s = signIn(t);
    JsonObject.Builder entry = JsonObject.builder().put("url", url(t).toString());
    if (!s.registers()) {
      entry.put("auth", JsonObject.builder().put("CLIENT_ID", s.clientId()).build());
    }
    return entry.build();
  }

  static String cursor(Clients.Target t) {
    return mcpServers(t, cursorServer(t));
  }

  static String cursorLink(Clients.Target t) {
    return InstallLinks.cursorLink(server(t), cursorServer(t));
  }

  static String opencode(Clients.Target t) {
    SignIn s = signIn(t);
    JsonObject.Builder entry =
        JsonObject.builder().put("type", "remote").put("url", url(t).toString());
    if (!s.registers()) {
      entry.put(
          "oauth",
          JsonObject.builder()
              .put("clientId", s.clientId())
              .put("callbackPort", s.callbackPort())
              .build());
    }
    return ConfigText.json(JsonObject.builder()
        .put("$schema", "https://opencode.ai/config.json")
        .put(
            "mcp",
            JsonObject.builder()
                .put(t.name(), entry.put("enabled", true).build())
                .build())
        .build());
  }

  static String copilot(Clients.Target t) {
    return mcpServers(
        t,
        JsonObject.builder()
            .put("type", "http")
            .put("url", url(t).toString())
            .put("tools", JsonArray.ofStrings(List.of("*")))
            .build());
  }

  static String codex(Clients.Target t) {
    SignIn s = signIn(t);
    StringBuilder toml = new StringBuilder("[mcp_servers.")
        .append(t.name())
        .append("]\n")
        .append("url = ")
        .append(ConfigText.toml(url(t).toString()));
    if (!s.registers()) {
      toml.append("\n\n[mcp_servers.")
          .append(t.name())
          .append(".oauth]\n")
          .append("client_id = ")
          .append(ConfigText.toml(Objects.requireNonNull(s.clientId())));
    }
    return toml.toString();
  }

  static String inspector(Clients.Target t) {
    SignIn s = signIn(t);
    return "npx @modelcontextprotocol/inspector   # then: Transport Type Streamable HTTP, URL "
        + url(t)
        + ", and sign in with its OAuth flow (Authentication)"
        + (s.registers() ? "" : ", client ID " + s.clientId());
  }

  private static String mcpServers(Clients.Target t, JsonObject entry) {
    return ConfigText.json(JsonObject.builder()
        .put("mcpServers", JsonObject.builder().put(t.name(), entry).build())
        .build());
  }
}
