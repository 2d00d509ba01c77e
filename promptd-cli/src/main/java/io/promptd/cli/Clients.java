package io.promptd.cli;

import io.promptd.catalog.links.InstallLinks;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd clients [DIR...] [--http URL] [--token-env VAR] [--name NAME] [--npx] [--client
 * ID]}: the ready configuration of each MCP client for serving the given library — over stdio with
 * absolute paths (the client starts promptd), or, with {@code --http}, for a running HTTP server
 * with a bearer token that each configuration takes from the environment variable {@code VAR}
 * (never the token itself) — beside the one-step forms: VS Code's install link and {@code code
 * --add-mcp} command, Cursor's deep link and the {@code claude mcp add} line
 * ({@link InstallLinks}). Over stdio it also prints the forms for promptd from npm ({@code npx -y
 * promptd serve DIR}); {@code --npx} makes every configuration use that command. {@code --client
 * ID} prints one client's configuration alone, as its file holds it (or the command or link that
 * adds it), for scripts and for the real-client tests.
 */
final class Clients {
  /** The system property the launchers set to their own absolute path. */
  static final String LAUNCHER_PROPERTY = "promptd.launcher";

  /**
   * What the clients connect to: a command to start over stdio, or an HTTP URL with a token
   * variable.
   */
  record Target(List<String> command, @Nullable URI url, String tokenVariable, String name) {
    boolean http() {
      return url != null;
    }

    /** The URL as text ({@code "null"} for stdio, where no configuration reads it). */
    String address() {
      return String.valueOf(url);
    }
  }

  /**
   * One client: its id, its name, where its configuration goes, and the configuration for a target.
   */
  record Client(String id, String title, String where, Function<Target, String> config) {}

  static final List<Client> ALL = List.of(
      new Client(
          "claude-code",
          "Claude Code",
          "run once (user scope; --scope project writes .mcp.json instead)",
          t -> InstallLinks.claudeCommand(server(t))),
      new Client(
          "gemini-cli",
          "Gemini CLI",
          ".gemini/settings.json in the project (or ~/.gemini/settings.json)",
          t -> json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::geminiServer))
              .build())),
      new Client(
          "qwen-code",
          "Qwen Code",
          ".qwen/settings.json in the project (or ~/.qwen/settings.json)",
          t -> json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::geminiServer))
              .build())),
      new Client(
          "vscode", "VS Code (Copilot Chat)", ".vscode/mcp.json in the workspace", Clients::vscode),
      new Client(
          "vscode-link",
          "VS Code install link",
          "open it (in a browser, or xdg-open/open 'LINK'): VS Code shows the server and asks before it adds it",
          t -> InstallLinks.vscodeLink(server(t))),
      new Client(
          "vscode-cli",
          "VS Code command line",
          "run once (adds it to your user profile)",
          t -> InstallLinks.vscodeCommand(server(t))),
      new Client(
          "cursor",
          "Cursor",
          ".cursor/mcp.json in the project (or ~/.cursor/mcp.json)",
          t -> json(JsonObject.builder()
              .put("mcpServers", servers(t, x -> InstallLinks.cursorServer(server(x))))
              .build())),
      new Client(
          "cursor-link",
          "Cursor install link",
          "open it (in a browser, or xdg-open/open 'LINK'): Cursor shows the server and asks before it adds it",
          t -> InstallLinks.cursorLink(server(t))),
      new Client(
          "opencode",
          "opencode",
          "opencode.json in the project (or ~/.config/opencode/opencode.json)",
          t -> json(JsonObject.builder()
              .put("$schema", "https://opencode.ai/config.json")
              .put("mcp", servers(t, Clients::opencodeServer))
              .build())),
      new Client(
          "copilot-cli",
          "GitHub Copilot CLI",
          "~/.copilot/mcp-config.json (it uses no MCP prompts, only"
              + " tools: the prompts are offered as tools, --prompts-as-tools, which an HTTP server must be started with)",
          t -> json(JsonObject.builder()
              .put("mcpServers", servers(t, Clients::copilotServer))
              .build())),
      new Client(
          "codex",
          "Codex CLI",
          "~/.codex/config.toml (it uses no MCP prompts, only tools: the prompts are offered as"
              + " tools, --prompts-as-tools, which an HTTP server must be started with)",
          Clients::codex),
      new Client(
          "claude-desktop",
          "Claude Desktop",
          "claude_desktop_config.json (Settings > Developer > Edit Config;"
              + " stdio only: add an HTTP server as a custom connector in its settings)",
          t -> t.http()
              ? ""
              : json(JsonObject.builder()
                  .put("mcpServers", servers(t, Clients::stdioServer))
                  .build())),
      new Client(
          "inspector", "MCP Inspector", "run it (a browser page opens)", Clients::inspector));

  private Clients() {}

  static int run(List<String> args, PrintStream out) {
    List<String> dirs = new ArrayList<>();
    URI url = null;
    String tokenVariable = ServeOptions.TOKEN_VARIABLE;
    String name = "promptd";
    String only = null;
    boolean npx = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--http" -> url = url(value(args, ++i, arg));
        case "--npx" -> npx = true;
        case "--token-env" -> tokenVariable = variable(value(args, ++i, arg));
        case "--name" -> name = serverName(value(args, ++i, arg));
        case "--client" -> only = value(args, ++i, arg);
        default -> {
          if (arg.startsWith("-")) {
            throw UsageException.of("option.unknown.in", arg, "clients");
          }
          dirs.add(arg);
        }
      }
    }
    if (url != null && !dirs.isEmpty()) {
      throw new UsageException("clients: give folders (stdio) or --http URL, not both");
    }
    if (url != null && npx) {
      throw new UsageException(
          "clients: --npx is for folders (the client starts promptd), not --http");
    }
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
    Target target = new Target(command, url, tokenVariable, name);
    if (only != null) {
      String id = only;
      Client client = ALL.stream()
          .filter(c -> c.id().equals(id))
          .findFirst()
          .orElseThrow(() -> new UsageException("clients: no client '" + id + "'; one of "
              + String.join(", ", ALL.stream().map(Client::id).toList())));
      String config = client.config().apply(target);
      if (config.isEmpty()) {
        throw new UsageException("clients: " + client.title() + " takes no "
            + (target.http() ? "HTTP" : "stdio") + " server in a file: " + client.where());
      }
      out.println(config);
      return Main.OK;
    }
    out.println("# promptd for MCP clients: "
        + (target.http()
            ? target.url() + " with the bearer token from $" + tokenVariable
            : "serving " + String.join(" ", folders) + " over stdio"
                + (npx ? ", started as " + shell(command.subList(0, 4)) : "")));
    if (!target.http()) {
      out.println(
          "# each client starts promptd itself; for a running HTTP server: promptd clients --http URL");
    }
    for (Client c : ALL) {
      String config = c.config().apply(target);
      if (config.isEmpty()) {
        continue;
      }
      out.println();
      out.println("## " + c.title() + " (" + c.id() + "): " + c.where());
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
    out.println("## From npm, with nothing installed (" + shell(server.command())
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
    return "npx @modelcontextprotocol/inspector " + shell(t.command());
  }

  private static String vscode(Target t) {
    InstallLinks.Server server = server(t);
    JsonObject.Builder root = JsonObject.builder();
    JsonArray inputs = InstallLinks.vscodeInputs(server);
    if (!inputs.elements().isEmpty()) {
      root.put("inputs", inputs);
    }
    return json(
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
      s.append("url = ").append(toml(t.address())).append('\n');
      s.append("bearer_token_env_var = ").append(toml(t.tokenVariable()));
    } else {
      s.append("command = ").append(toml(t.command().getFirst())).append('\n');
      List<String> args =
          withPromptsAsTools(t.command()).stream().map(Clients::toml).toList();
      s.append("args = [").append(String.join(", ", args)).append(']');
    }
    return s.toString();
  }

  /** {@code text} as a TOML basic string (the name is a bare key: --name allows no other). */
  private static String toml(String text) {
    StringBuilder s = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> s.append("\\\"");
        case '\\' -> s.append("\\\\");
        case '\n' -> s.append("\\n");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            s.append(String.format("\\u%04X", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    return s.append('"').toString();
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

  /** {@code args} as one POSIX shell command line, quoting only what needs it. */
  static String shell(List<String> args) {
    return InstallLinks.shell(args);
  }

  /** JSON with two-space indentation, as people keep configuration files. */
  static String json(Json value) {
    StringBuilder s = new StringBuilder();
    write(value, s, "");
    return s.toString();
  }

  private static void write(Json value, StringBuilder s, String indent) {
    switch (value) {
      case JsonObject o
      when !o.members().isEmpty() -> {
        s.append("{\n");
        int i = 0;
        for (Map.Entry<String, Json> e : o.members().entrySet()) {
          s.append(indent)
              .append("  ")
              .append(JsonCodec.write(new JsonString(e.getKey())))
              .append(": ");
          write(e.getValue(), s, indent + "  ");
          s.append(++i < o.members().size() ? ",\n" : "\n");
        }
        s.append(indent).append('}');
      }
      case JsonArray a
      when a.elements().stream().anyMatch(e -> e instanceof JsonObject) -> {
        s.append("[\n");
        for (int i = 0; i < a.elements().size(); i++) {
          s.append(indent).append("  ");
          write(a.elements().get(i), s, indent + "  ");
          s.append(i + 1 < a.elements().size() ? ",\n" : "\n");
        }
        s.append(indent).append(']');
      }
      default -> s.append(JsonCodec.write(value));
    }
  }

  private static String value(List<String> args, int i, String option) {
    if (i >= args.size()) {
      throw UsageException.of("value.missing.in", option, "clients");
    }
    return args.get(i);
  }

  private static URI url(String text) {
    try {
      URI u = new URI(text);
      if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
        throw new UsageException("clients: --http needs an http:// or https:// URL, such as"
            + " http://127.0.0.1:3000/mcp, not '" + text + "'");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new UsageException(
          "clients: --http needs a URL such as http://127.0.0.1:3000/mcp, not '" + text + "'");
    }
  }

  private static String variable(String name) {
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new UsageException(
          "clients: --token-env needs an environment variable's name, not '" + name + "'");
    }
    return name;
  }

  private static String serverName(String name) {
    if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new UsageException("clients: --name must be 1-64 letters, digits, '_' or '-'");
    }
    return name;
  }
}
