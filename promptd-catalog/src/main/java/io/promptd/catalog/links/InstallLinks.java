package io.promptd.catalog.links;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one-step ways to add a promptd server to an MCP client, each built from the entry that
 * client's configuration file holds: VS Code's install link ({@code vscode:mcp/install?} and the
 * percent-encoded JSON of {@code code --add-mcp}), Cursor's deep link
 * ({@code cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=} and the base64 of its
 * {@code mcp.json} entry) and Claude Code's {@code claude mcp add} line. Over HTTP a link names the
 * variable that holds the token (an environment variable, or a VS Code input the user is asked
 * for), never the token.
 *
 * <pre>{@code
 * InstallLinks.Server s = new InstallLinks.Http("promptd", URI.create("https://prompts.example.com/mcp"), "PROMPTD_TOKEN");
 * String button = InstallLinks.cursorLink(s);
 * }</pre>
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class InstallLinks {
  /**
   * The npm package whose bin is promptd: {@code npx -y promptd serve DIR} starts it with nothing
   * installed.
   */
  public static final String NPM_PACKAGE = "promptd";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private InstallLinks() {}

  /**
   * A server a client adds: a command it starts over stdio ({@link Stdio}) or an HTTP endpoint
   * ({@link Http}).
   */
  public sealed interface Server permits Stdio, Http {
    /** The name the client lists the server under: 1-64 letters, digits, {@code _} or {@code -}. */
    String name();
  }

  /**
   * A server the client starts itself and speaks to over stdio.
   *
   * @param name as {@link Server#name()}
   * @param command the program and its arguments, such as {@code [/opt/promptd/bin/promptd, serve,
   *     /srv/prompts]}
   */
  public record Stdio(String name, List<String> command) implements Server {
    /**
     * Checks the name and that there is a program.
     *
     * @throws IllegalArgumentException when the name is not 1-64 letters, digits, {@code _} or
     *     {@code -}, or the command is empty
     */
    public Stdio {
      checkName(name, "InstallLinks.Stdio");
      command = List.copyOf(requireNonNull(command, "InstallLinks.Stdio: command"));
      if (command.isEmpty()) {
        throw new IllegalArgumentException("InstallLinks.Stdio: the command is empty");
      }
    }

    /**
     * The server as npm starts it, with nothing installed: {@code npx -y promptd serve FOLDER...}.
     *
     * @param name as {@link Server#name()}
     * @param folders the prompt folders, as absolute paths
     * @return the server
     */
    public static Stdio npx(String name, List<String> folders) {
      List<String> command = new ArrayList<>(List.of("npx", "-y", NPM_PACKAGE, "serve"));
      command.addAll(requireNonNull(folders, "InstallLinks.Stdio.npx: folders"));
      return new Stdio(name, command);
    }
  }

  /**
   * A running server the client reaches over HTTP.
   *
   * @param name as {@link Server#name()}
   * @param url the MCP endpoint, such as {@code https://prompts.example.com/mcp}
   * @param tokenVariable the environment variable that holds the bearer token, which the links name
   *     in each client's syntax; null when the server takes no bearer token (none, or OAuth, which
   *     the clients do themselves)
   */
  public record Http(String name, URI url, @Nullable String tokenVariable) implements Server {
    /**
     * Checks the name, the URL and the variable.
     *
     * @throws IllegalArgumentException when the name is not 1-64 letters, digits, {@code _} or
     *     {@code -}, the URL is not an http or https URL with a host and no user, or the variable
     *     is not a variable's name
     */
    public Http {
      checkName(name, "InstallLinks.Http");
      requireNonNull(url, "InstallLinks.Http: url");
      String scheme = String.valueOf(url.getScheme()).toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https"))
          || url.getHost() == null
          || url.getRawUserInfo() != null) {
        throw new IllegalArgumentException(
            "InstallLinks.Http: the URL must be http or https with a host and no user, not '" + url
                + "'");
      }
      if (tokenVariable != null && !VARIABLE.matcher(tokenVariable).matches()) {
        throw new IllegalArgumentException(
            "InstallLinks.Http: the token variable must be an environment"
                + " variable's name, not '" + tokenVariable + "'");
      }
    }
  }

  /**
   * The server's entry in VS Code's {@code mcp.json} (a member of its "servers"): {@code type},
   * then {@code command} and {@code args} (stdio) or {@code url} and, with a token, {@code headers}
   * whose value asks for the input of {@link #vscodeInputs}.
   *
   * @param server the server
   * @return the entry
   */
  public static JsonObject vscodeServer(Server server) {
    return switch (requireNonNull(server, "InstallLinks.vscodeServer: server")) {
      case Stdio s ->
        JsonObject.builder()
            .put("type", "stdio")
            .put("command", s.command().getFirst())
            .put("args", JsonArray.ofStrings(s.command().subList(1, s.command().size())))
            .build();
      case Http h -> {
        JsonObject.Builder b =
            JsonObject.builder().put("type", "http").put("url", h.url().toString());
        if (h.tokenVariable() != null) {
          b.put("headers", authorization("Bearer ${input:" + inputId(h) + "}"));
        }
        yield b.build();
      }
    };
  }

  /**
   * VS Code's {@code inputs} for the server: over HTTP with a token, one password prompt for it (VS
   * Code asks once and keeps the answer in its secret storage); otherwise none.
   *
   * @param server the server
   * @return the inputs, maybe empty
   */
  public static JsonArray vscodeInputs(Server server) {
    if (requireNonNull(server, "InstallLinks.vscodeInputs: server") instanceof Http h
        && h.tokenVariable() != null) {
      return new JsonArray(List.of(JsonObject.builder()
          .put("type", "promptString")
          .put("id", inputId(h))
          .put("description", "The bearer token of " + h.url())
          .put("password", true)
          .build()));
    }
    return JsonArray.EMPTY;
  }

  /**
   * VS Code's install link: {@code vscode:mcp/install?} and the URL-encoded JSON of
   * {@link #vscodeCommand}'s definition. Opened in a browser or with {@code xdg-open}/{@code open},
   * VS Code shows the server and asks before it adds it.
   *
   * @param server the server
   * @return the link
   */
  public static String vscodeLink(Server server) {
    return "vscode:mcp/install?" + encodeUriComponent(JsonCodec.write(vscodeDefinition(server)));
  }

  /**
   * VS Code's command line: {@code code --add-mcp '{"name":…,…}'}, the name beside the
   * {@link #vscodeServer} entry (and the {@link #vscodeInputs}, if any); it adds the server to the
   * user profile.
   *
   * @param server the server
   * @return the command, quoted for a POSIX shell
   */
  public static String vscodeCommand(Server server) {
    return "code --add-mcp " + shell(List.of(JsonCodec.write(vscodeDefinition(server))));
  }

  /**
   * The server's entry under {@code mcpServers} in Cursor's {@code mcp.json}: {@code command} and
   * {@code args} (stdio), or {@code url} and, with a token, an {@code Authorization} header read
   * from the environment ({@code ${env:VAR}}).
   *
   * @param server the server
   * @return the entry
   */
  public static JsonObject cursorServer(Server server) {
    return switch (requireNonNull(server, "InstallLinks.cursorServer: server")) {
      case Stdio s ->
        JsonObject.builder()
            .put("command", s.command().getFirst())
            .put("args", JsonArray.ofStrings(s.command().subList(1, s.command().size())))
            .build();
      case Http h -> {
        JsonObject.Builder b = JsonObject.builder().put("url", h.url().toString());
        if (h.tokenVariable() != null) {
          b.put("headers", authorization("Bearer ${env:" + h.tokenVariable() + "}"));
        }
        yield b.build();
      }
    };
  }

  /**
   * Cursor's deep link: {@code cursor://anysphere.cursor-deeplink/mcp/install?name=NAME&config=}
   * and the base64 of the {@link #cursorServer} entry's JSON (percent-encoded, so that no {@code +}
   * turns into a space). Cursor shows the server and asks before it adds it.
   *
   * @param server the server
   * @return the link
   */
  public static String cursorLink(Server server) {
    return cursorLink(server, cursorServer(server));
  }

  /**
   * Cursor's deep link for the server with an entry of its own, such as one that adds OAuth
   * settings ({@code auth}) to the {@link #cursorServer} entry.
   *
   * @param server the server, for its name
   * @param entry the server's entry under {@code mcpServers}
   * @return the link
   */
  public static String cursorLink(Server server, JsonObject entry) {
    requireNonNull(server, "InstallLinks.cursorLink: server");
    String config = Base64.getEncoder()
        .encodeToString(JsonCodec.write(requireNonNull(entry, "InstallLinks.cursorLink: entry"))
            .getBytes(UTF_8));
    return "cursor://anysphere.cursor-deeplink/mcp/install?name="
        + encodeUriComponent(server.name()) + "&config=" + encodeUriComponent(config);
  }

  /**
   * Claude Code's line: {@code claude mcp add --scope user NAME -- COMMAND…} (stdio), or
   * {@code claude mcp add --transport http NAME URL} with, given a token, {@code --header
   * "Authorization: Bearer $VAR"} — the shell reads the variable when the line runs.
   *
   * @param server the server
   * @return the line, quoted for a POSIX shell
   */
  public static String claudeCommand(Server server) {
    return switch (requireNonNull(server, "InstallLinks.claudeCommand: server")) {
      case Stdio s -> "claude mcp add --scope user " + s.name() + " -- " + shell(s.command());
      case Http h ->
        "claude mcp add --transport http " + h.name() + " "
            + shell(List.of(h.url().toString()))
            + (h.tokenVariable() == null
                ? ""
                : " --header \"Authorization: Bearer $" + h.tokenVariable() + "\"");
    };
  }

  /**
   * {@code words} as one POSIX shell command line, quoting only the words that need it.
   *
   * @param words the words
   * @return the line
   */
  public static String shell(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      out.add(PLAIN_WORD.matcher(w).matches() ? w : "'" + w.replace("'", "'\\''") + "'");
    }
    return String.join(" ", out);
  }

  /**
   * What {@code --add-mcp} and the install link take: the name, the entry's members, then the
   * inputs, if any.
   */
  private static JsonObject vscodeDefinition(Server server) {
    JsonObject.Builder b =
        JsonObject.builder().put("name", server.name()).putAll(vscodeServer(server));
    JsonArray inputs = vscodeInputs(server);
    if (!inputs.elements().isEmpty()) {
      b.put("inputs", inputs);
    }
    return b.build();
  }

  private static String inputId(Http server) {
    return server.name() + "-token";
  }

  private static JsonObject authorization(String value) {
    return JsonObject.builder().put("Authorization", value).build();
  }

  /**
   * {@code text} percent-encoded in UTF-8, keeping only letters, digits and {@code -_.~}: what
   * {@code decodeURIComponent} and every query parser decode, with none of the characters a shell
   * or HTML treats specially.
   */
  private static String encodeUriComponent(String text) {
    StringBuilder s = new StringBuilder();
    for (byte b : text.getBytes(UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || "-_.~".indexOf(c) >= 0) {
        s.append(c);
      } else {
        s.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        s.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return s.toString();
  }

  private static void checkName(String name, String where) {
    requireNonNull(name, where + ": name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          where + ": the name must be 1-64 letters, digits, '_' or '-', not '" + name + "'");
    }
  }
}
