package io.promptd.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The options of {@code promptd clients}, checked together: folders (stdio) or an HTTP server, and
 * for a server either a token variable or a way of signing in with OAuth.
 *
 * @param dirs the folders to serve over stdio (none with {@code --http})
 * @param url the HTTP server's MCP URL, or null for stdio
 * @param tokenVariable the environment variable the bearer token is read from
 * @param tokenGiven whether {@code --token-env} was given, which rules out OAuth
 * @param name the name each client lists the server under
 * @param only the one client to print, or null for all
 * @param npx whether the clients start promptd from npm
 * @param oauth whether {@code --oauth} said the server signs people in with OAuth
 * @param clientId a pre-registered public client's id ({@code --client-id}), or null
 * @param callbackPort the callback port for that client ({@code --callback-port}), or null
 */
record ClientsOptions(
    List<String> dirs,
    @Nullable URI url,
    String tokenVariable,
    boolean tokenGiven,
    String name,
    @Nullable String only,
    boolean npx,
    boolean oauth,
    @Nullable String clientId,
    @Nullable Integer callbackPort) {
  static ClientsOptions parse(List<String> args) {
    List<String> dirs = new ArrayList<>();
    URI url = null;
    String tokenVariable = ServeOptions.TOKEN_VARIABLE;
    String name = "promptd";
    String only = null;
    boolean npx = false;
    boolean tokenGiven = false;
    boolean oauth = false;
    String clientId = null;
    Integer callbackPort = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--http" -> url = url(value(args, ++i, arg));
        case "--npx" -> npx = true;
        case "--token-env" -> {
          tokenVariable = variable(value(args, ++i, arg));
          tokenGiven = true;
        }
        case "--oauth" -> oauth = true;
        case "--client-id" -> clientId = clientId(value(args, ++i, arg));
        case "--callback-port" -> callbackPort = port(value(args, ++i, arg));
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
    if (url == null && (oauth || clientId != null || callbackPort != null)) {
      throw new UsageException("clients: --oauth, --client-id and --callback-port are for an HTTP"
          + " server that signs people in: give --http URL");
    }
    if (tokenGiven && (oauth || clientId != null)) {
      throw new UsageException("clients: a server takes a token (--token-env) or OAuth (--oauth,"
          + " --client-id), not both");
    }
    if (callbackPort != null && clientId == null) {
      throw new UsageException("clients: --callback-port is for a pre-registered client: give"
          + " --client-id ID too (a client that registers itself picks its own port)");
    }
    return new ClientsOptions(
        List.copyOf(dirs),
        url,
        tokenVariable,
        tokenGiven,
        name,
        only,
        npx,
        oauth,
        clientId,
        callbackPort);
  }

  /**
   * How people sign in to the HTTP server, or null when they use the token (and for stdio): with
   * {@code --oauth} or {@code --client-id} as given; otherwise the server is asked, for at most
   * {@code probe}, whether its protected-resource metadata names an identity provider.
   */
  @Nullable
  SignIn signIn(Duration probe) {
    URI server = url;
    if (server == null || tokenGiven) {
      return null;
    }
    String issuer =
        oauth || clientId != null ? null : SignIn.issuerOf(server, probe).orElse(null);
    if (issuer == null && !oauth && clientId == null) {
      return null;
    }
    return new SignIn(
        issuer, clientId, callbackPort != null ? callbackPort : SignIn.DEFAULT_CALLBACK_PORT);
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

  private static String clientId(String id) {
    if (id.isBlank() || id.length() > 255 || id.codePoints().anyMatch(Character::isISOControl)) {
      throw new UsageException(
          "clients: --client-id needs the identity provider's id of a public client");
    }
    return id;
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new UsageException(
        "clients: --callback-port needs a port from 1 to 65535, not '" + text + "'");
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
