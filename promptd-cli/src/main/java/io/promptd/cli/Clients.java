package io.promptd.cli;

import io.promptd.catalog.links.InstallLinks;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd clients [DIR...] [--http URL] [--token-env VAR | --oauth | --client-id ID
 * [--callback-port PORT]] [--name NAME] [--npx] [--client ID]}: the ready configuration of each MCP
 * client for serving the given library — over stdio with absolute paths (the client starts
 * promptd), or, with {@code --http}, for a running HTTP server: with a bearer token that each
 * configuration takes from the environment variable {@code VAR} (never the token itself), or, when
 * the server signs people in with OAuth ({@link SignIn}: the server's metadata names an identity
 * provider, or {@code --oauth}/{@code --client-id} say so), with no token at all, each client
 * registering itself or using the given public client ({@link OAuthForms}) — beside the one-step
 * forms: VS Code's install link and {@code code --add-mcp} command, Cursor's deep link and the
 * {@code claude mcp add} line ({@link InstallLinks}). Over stdio it also prints the forms for
 * promptd from npm ({@code npx -y promptd serve DIR}); {@code --npx} makes every configuration use
 * that command. {@code --client ID} prints one client's configuration alone, as its file holds it
 * (or the command or link that adds it), for scripts and for the real-client tests.
 */
final class Clients {
  /** How long {@code --http} waits for the server's protected-resource metadata. */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  /** The system property the launchers set to their own absolute path. */
  static final String LAUNCHER_PROPERTY = "promptd.launcher";

  /**
   * What the clients connect to: a command to start over stdio, or an HTTP URL with a token
   * variable.
   */
  record Target(
      List<String> command,
      @Nullable URI url,
      String tokenVariable,
      String name,
      @Nullable SignIn signIn) {
    boolean http() {
      return url != null;
    }

    /** The URL as text ({@code "null"} for stdio, where no configuration reads it). */
    String address() {
      return String.valueOf(url);
    }
  }

  /**
   * One client: its id, its name, where its configuration goes, the configuration for a target, the
   * configuration for an HTTP server that signs people in with OAuth ({@link OAuthForms}), and how
   * a person signs in there once it is added.
   */
  record Client(
      String id,
      String title,
      String where,
      Function<Target, String> config,
      Function<Target, String> oauth,
      String signIn) {
    /** The configuration for the target, in the form its way of signing in needs. */
    String configFor(Target t) {
      return t.signIn() != null ? oauth.apply(t) : config.apply(t);
    }
  }

  static final List<Client> ALL = List.of(
      new Client(
          "claude-code",
          "Claude Code",
          "run once (user scope; --scope project writes .mcp.json instead)",
          t -> InstallLinks.claudeCommand(server(t)),
          OAuthForms::claude,
          "in Claude Code: /mcp, then the server, then Authenticate"),
      new Client(
          "gemini-cli",
          "Gemini CLI",
          ".gemini/settings.json in the project (or ~/.gemini/settings.json)",
          t -> ConfigText.json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::geminiServer))
              .build()),
          OAuthForms::gemini,
          "in Gemini CLI: /mcp auth NAME"),
      new Client(
          "qwen-code",
          "Qwen Code",
          ".qwen/settings.json in the project (or ~/.qwen/settings.json)",
          t -> ConfigText.json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::geminiServer))
              .build()),
          OAuthForms::qwen,
          "in Qwen Code: /mcp, then the server, then authenticate"),
      new Client(
          "vscode",
          "VS Code (Copilot Chat)",
          ".vscode/mcp.json in the workspace",
          Clients::vscode,
          OAuthForms::vscode,
          "VS Code asks to sign in when it starts the server"),
      new Client(
          "vscode-link",
          "VS Code install link",
          "open it (in a browser, or xdg-open/open 'LINK'): VS Code shows the server and asks before it adds it",
          t -> InstallLinks.vscodeLink(server(t)),
          OAuthForms::vscodeLink,
          "VS Code asks to sign in when it starts the server"),
      new Client(
          "vscode-cli",
          "VS Code command line",
          "run once (adds it to your user profile)",
          t -> InstallLinks.vscodeCommand(server(t)),
          OAuthForms::vscodeCommand,
          "VS Code asks to sign in when it starts the server"),
      new Client(
          "cursor",
          "Cursor",
          ".cursor/mcp.json in the project (or ~/.cursor/mcp.json)",
          t -> ConfigText.json(JsonObject.builder()
              .put("mcpServers", servers(t, x -> InstallLinks.cursorServer(server(x))))
              .build()),
          OAuthForms::cursor,
          "in Cursor's MCP settings, the server's sign-in"),
      new Client(
          "cursor-link",
          "Cursor install link",
          "open it (in a browser, or xdg-open/open 'LINK'): Cursor shows the server and asks before it adds it",
          t -> InstallLinks.cursorLink(server(t)),
          OAuthForms::cursorLink,
          "in Cursor's MCP settings, the server's sign-in"),
      new Client(
          "opencode",
          "opencode",
          "opencode.json in the project (or ~/.config/opencode/opencode.json)",
          t -> ConfigText.json(JsonObject.builder()
              .put("$schema", "https://opencode.ai/config.json")
              .put("mcp", servers(t, Clients::opencodeServer))
              .build()),
          OAuthForms::opencode,
          "opencode mcp auth NAME"),
      new Client(
          "copilot-cli",
          "GitHub Copilot CLI",
          "~/.copilot/mcp-config.json (it uses no MCP prompts, only"
              + " tools: the prompts are offered as tools, --prompts-as-tools, which an HTTP server must be started with)",
          t -> ConfigText.json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::copilotServer))
              .build()),
          OAuthForms::copilot,
          "Copilot CLI signs in when it starts the server"),
      new Client(
          "codex",
          "Codex CLI",
          "~/.codex/config.toml (it uses no MCP prompts, only tools: the prompts are offered as"
              + " tools, --prompts-as-tools, which an HTTP server must be started with)",
          Clients::codex,
          OAuthForms::codex,
          "codex mcp login NAME"),
      new Client(
          "claude-desktop",
          "Claude Desktop",
          "claude_desktop_config.json (Settings > Developer > Edit Config;"
              + " stdio only: add an HTTP server as a custom connector in its settings)",
          t -> t.http()
              ? ""
              : ConfigText.json(JsonObject.builder()
                  .put("mcpServers", servers(t, Clients::stdioServer))
                  .build()),
          t -> "",
          ""),
      new Client(
          "inspector",
          "MCP Inspector",
          "run it (a browser page opens)",
          Clients::inspector,
          OAuthForms::inspector,
          "in the Inspector's Authentication settings"));

  private Clients() {}

  static int run(List<String> args, PrintStream out) {
    ClientsOptions o = ClientsOptions.parse(args);
    URI url = o.url();
    String name = o.name();
    boolean npx = o.npx();
    String tokenVariable = o.tokenVariable();
    SignIn signIn = o.signIn(PROBE_TIMEOUT);
    List<String> dirs = o.dirs();
    List<String> folders = new ArrayList<>();
    if (url == null) {
      List<Path> roots = ServeOptions.directories(dirs.isEmpty() ? List.of(".") : dirs);
      roots.forEach(p -> folders.add(p.toAbsolutePath().normalize().toString()));
    }
    List<String> command = npx
        ? InstallLinks.Stdio.npx(name, folders).command()
        : new ArrayList<>(List.of(launcher(), "serve"));
    if (!npx) {
      command.addAll(folders);
    }
    Target target = new Target(command, url, tokenVariable, name, signIn);
    if (o.only() != null) {
      String id = o.only();
      Client client = ALL.stream()
          .filter(c -> c.id().equals(id))
          .findFirst()
          .orElseThrow(() -> new UsageException("clients: no client '" + id + "'; one of "
              + String.join(", ", ALL.stream().map(Client::id).toList())));
      String config = client.configFor(target);
      if (config.isEmpty()) {
        throw new UsageException("clients: " + client.title() + " takes no "
            + (target.http() ? "HTTP" : "stdio") + " server in a file: " + client.where());
      }
      out.println(config);
      return Main.OK;
    }
    out.println("# promptd for MCP clients: "
        + (signIn != null
            ? target.url() + ", where people sign in with OAuth"
                + (signIn.issuer() == null ? "" : " at " + signIn.issuer())
            : target.http()
                ? target.url() + " with the bearer token from $" + tokenVariable
                : "serving " + String.join(" ", folders) + " over stdio"
                    + (npx ? ", started as " + ConfigText.shell(command.subList(0, 4)) : "")));
    if (signIn != null) {
      out.println(
          signIn.registers()
              ? "# each client registers itself with the identity provider (dynamic client"
                  + " registration); for a pre-registered public client instead: --client-id ID"
              : "# every client uses the public client " + signIn.clientId()
                  + "; let it redirect to " + signIn.redirectUris());
    }
    if (!target.http()) {
      out.println(
          "# each client starts promptd itself; for a running HTTP server: promptd clients --http URL");
    }
    for (Client c : ALL) {
      String config = c.configFor(target);
      if (config.isEmpty()) {
        continue;
      }
      out.println();
      out.println("## " + c.title() + " (" + c.id() + "): " + c.where());
      if (signIn != null) {
        out.println("# then sign in: " + c.signIn().replace("NAME", name));
      }
      out.println(config);
    }
    if (!target.http() && !npx) {
      npxForms(InstallLinks.Stdio.npx(name, folders), out);
    }
    return Main.OK;
  }

  /**
   * The main forms again for promptd from npm, which needs no installation (promptd clients --npx:
   * all of them).
   */
  private static void npxForms(InstallLinks.Stdio server, PrintStream out) {
    out.println();
    out.println("## From npm, with nothing installed (" + ConfigText.shell(server.command())
        + "; every client: promptd clients --npx DIR...)");
    out.println("# the mcpServers entry of Claude Desktop, Cursor, Gemini CLI and Qwen Code:");
    out.println(JsonCodec.write(JsonObject.builder()
        .put(server.name(), InstallLinks.cursorServer(server))
        .build()));
    out.println("# Claude Code:");
    out.println(InstallLinks.claudeCommand(server));
    out.println("# VS Code (open the link, or run the command):");
    out.println(InstallLinks.vscodeLink(server));
    out.println(InstallLinks.vscodeCommand(server));
    out.println("# Cursor:");
    out.println(InstallLinks.cursorLink(server));
  }

  /** The target as the install links take it. */
  private static InstallLinks.Server server(Target t) {
    URI url = t.url();
    return url != null
        ? new InstallLinks.Http(t.name(), url, t.tokenVariable())
        : new InstallLinks.Stdio(t.name(), t.command());
  }

  /**
   * The launcher's absolute path (the checkout's ./promptd or the archive's bin/promptd), else
   * {@code promptd}.
   */
  static String launcher() {
    String own = System.getProperty(LAUNCHER_PROPERTY);
    return own == null || own.isBlank() ? "promptd" : own;
  }

  private static String inspector(Target t) {
    if (t.http()) {
      return "npx @modelcontextprotocol/inspector   # then: Transport Type Streamable HTTP, URL "
          + t.url() + ", Authentication: header Authorization, value Bearer <the token in $"
          + t.tokenVariable() + ">";
    }
    return "npx @modelcontextprotocol/inspector " + ConfigText.shell(t.command());
  }

  private static String vscode(Target t) {
    InstallLinks.Server server = server(t);
    JsonObject.Builder root = JsonObject.builder();
    JsonArray inputs = InstallLinks.vscodeInputs(server);
    if (!inputs.elements().isEmpty()) {
      root.put("inputs", inputs);
    }
    return ConfigText.json(
        root.put("servers", servers(t, x -> InstallLinks.vscodeServer(server))).build());
  }

  private static JsonObject servers(Target t, Function<Target, JsonObject> server) {
    return JsonObject.builder().put(t.name(), server.apply(t)).build();
  }

  private static JsonObject stdioServer(Target t) {
    return JsonObject.builder()
        .put("command", t.command().getFirst())
        .put("args", JsonArray.ofStrings(t.command().subList(1, t.command().size())))
        .build();
  }

  private static JsonObject geminiServer(Target t) {
    return t.http()
        ? JsonObject.builder()
            .put("httpUrl", t.address())
            .put("headers", auth("Bearer $" + t.tokenVariable()))
            .build()
        : stdioServer(t);
  }

  private static JsonObject opencodeServer(Target t) {
    return t.http()
        ? JsonObject.builder()
            .put("type", "remote")
            .put("url", t.address())
            .put("headers", auth("Bearer {env:" + t.tokenVariable() + "}"))
            .put("oauth", false)
            .put("enabled", true)
            .build()
        : JsonObject.builder()
            .put("type", "local")
            .put("command", JsonArray.ofStrings(t.command()))
            .put("enabled", true)
            .build();
  }

  private static JsonObject copilotServer(Target t) {
    JsonObject.Builder b = t.http()
        ? JsonObject.builder()
            .put("type", "http")
            .put("url", t.address())
            .put("headers", auth("Bearer ${" + t.tokenVariable() + "}"))
        : JsonObject.builder()
            .put("type", "local")
            .put("command", t.command().getFirst())
            .put("args", JsonArray.ofStrings(withPromptsAsTools(t.command())));
    return b.put("tools", JsonArray.ofStrings(List.of("*"))).build();
  }

  /** Codex's table in its config.toml: TOML, where the other clients take JSON. */
  private static String codex(Target t) {
    StringBuilder s = new StringBuilder("[mcp_servers.").append(t.name()).append("]\n");
    if (t.http()) {
      s.append("url = ").append(ConfigText.toml(t.address())).append('\n');
      s.append("bearer_token_env_var = ").append(ConfigText.toml(t.tokenVariable()));
    } else {
      s.append("command = ").append(ConfigText.toml(t.command().getFirst())).append('\n');
      List<String> args =
          withPromptsAsTools(t.command()).stream().map(ConfigText::toml).toList();
      s.append("args = [").append(String.join(", ", args)).append(']');
    }
    return s.toString();
  }

  /**
   * The arguments of {@code command} (launcher or npx's, serve, folders) with
   * {@code --prompts-as-tools} after serve.
   */
  private static List<String> withPromptsAsTools(List<String> command) {
    List<String> args = new ArrayList<>(command.subList(1, command.size()));
    args.add(args.indexOf("serve") + 1, "--prompts-as-tools");
    return args;
  }

  private static JsonObject auth(String value) {
    return JsonObject.builder().put("Authorization", value).build();
  }
}
