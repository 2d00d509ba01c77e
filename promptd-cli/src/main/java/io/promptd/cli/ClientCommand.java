package io.promptd.cli;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.FormHandler;
import io.promptd.mcp.client.HttpStatusException;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Methods;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd list | get | complete | watch} against any MCP server: {@code --stdio "command …"}
 * or {@code --url URL}. Human-readable output by default, the server's JSON with {@code --json}.
 */
final class ClientCommand {
  private final String verb;
  private final List<String> positional = new ArrayList<>();
  private final Map<String, String> arguments = new LinkedHashMap<>();
  private @Nullable String stdio;
  private @Nullable String url;
  private boolean json;
  private boolean noInput;
  private @Nullable String token;
  private final List<String[]> headers = new ArrayList<>();
  private Duration timeout = Duration.ofSeconds(30);

  private ClientCommand(String verb) {
    this.verb = verb;
  }

  static ClientCommand parse(String verb, List<String> args) {
    ClientCommand c = new ClientCommand(verb);
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--stdio" -> c.stdio = value(args, ++i, a);
        case "--url" -> c.url = url(value(args, ++i, a));
        case "--json" -> c.json = true;
        case "--no-input" -> c.noInput = true;
        case "--timeout" -> c.timeout = seconds(value(args, ++i, a));
        case "--token" -> c.token = token(value(args, ++i, a));
        case "--header" -> c.headers.add(header(value(args, ++i, a)));
        default -> {
          if (a.startsWith("--")) {
            throw UsageException.of("option.unknown", a);
          }
          c.positional(a);
        }
      }
    }
    if ((c.stdio == null) == (c.url == null)) {
      throw new UsageException(verb + " needs exactly one of --stdio \"command …\" or --url URL");
    }
    if (c.stdio != null && (c.token != null || !c.headers.isEmpty())) {
      throw new UsageException(
          "--token and --header are for --url (a stdio server is started, not called)");
    }
    if (c.url != null && c.token == null) {
      String fromEnvironment = System.getenv(ServeOptions.TOKEN_VARIABLE);
      c.token =
          fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.strip();
    }
    int expected = switch (verb) {
      case "get" -> 1;
      case "complete" -> 3;
      default -> 0;
    };
    if (c.positional.size() != expected) {
      throw new UsageException(
          verb + " takes " + expected + " positional argument(s), got " + c.positional);
    }
    return c;
  }

  private void positional(String a) {
    int eq = a.indexOf('=');
    boolean takesArguments = verb.equals("get") || verb.equals("complete");
    if (takesArguments && eq > 0 && positional.size() >= (verb.equals("get") ? 1 : 3)) {
      arguments.put(a.substring(0, eq), a.substring(eq + 1));
    } else {
      positional.add(a);
    }
  }

  int run(PrintStream out, PrintStream err) {
    // On a terminal `get` lets the server ask for missing or invalid arguments (the form goes to
    // stderr, the answers come from stdin): a 2026-07-28 server through input_required rounds, a
    // legacy one with elicitation/create, which the session declares it can answer. With
    // --no-input, or without a terminal, the server is not offered to ask, and its -32602 says what
    // is wrong.
    FormHandler forms = !verb.equals("get") || noInput || !TerminalForm.stdinIsATerminal()
        ? null
        : new TerminalForm(
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
            System.err);
    // Errors in the user's language; the server's own words are shown as it sent them.
    CliText text = CliText.of(System.getenv(), err.charset());
    Map<String, String> given = new LinkedHashMap<>();
    try {
      if (verb.equals("get")) { // files read before connecting: a typo costs nothing
        for (Map.Entry<String, String> e : arguments.entrySet()) {
          given.put(e.getKey(), argumentValue(e.getKey(), e.getValue()));
        }
      }
    } catch (UsageException e) {
      err.println("promptd: " + e.message(text));
      return Main.USAGE;
    }
    try (McpClient client = connect(forms)) {
      return switch (verb) {
        case "list" -> list(client, out);
        case "get" -> get(client, out, forms, given);
        case "complete" -> complete(client, out);
        default -> watch(client, out);
      };
    } catch (McpException e) {
      err.println(
          "promptd: " + text.get("client.server-error", e.code(), String.valueOf(e.getMessage())));
      if (verb.equals("get")
          && e.code() == ErrorCodes.INVALID_PARAMS
          && String.valueOf(e.getMessage()).startsWith("Unknown prompt")) {
        // The name may be right and its file broken: promptd serves no file that has an error.
        err.println("promptd: " + text.get("client.not-served", positional.getFirst()));
      }
      return Main.SERVER_ERROR;
    } catch (HttpStatusException e) {
      err.println(
          "promptd: " + text.get("client.refused", target(), String.valueOf(e.getMessage())));
      if (e.status() == 401 || e.status() == 403) {
        err.println("promptd: "
            + (token == null && headers.isEmpty()
                ? text.get("client.needs-token", ServeOptions.TOKEN_VARIABLE)
                : text.get(e.status() == 401 ? "client.token.wrong" : "client.token.forbidden")));
      }
      return Main.CONNECTION_FAILED;
    } catch (IOException e) {
      err.println("promptd: " + text.get("client.unreachable", target(), describe(e)));
      return Main.CONNECTION_FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.CONNECTION_FAILED;
    } catch (RuntimeException e) {
      err.println("promptd: " + e.getMessage());
      return Main.SERVER_ERROR;
    }
  }

  private McpClient connect(@Nullable FormHandler forms) throws IOException {
    ClientOptions options = ClientOptions.defaults().withTimeout(timeout).withForms(forms);
    for (String[] h : headers) {
      options = options.withHeader(h[0], h[1]);
    }
    String bearer = token;
    if (bearer != null) {
      options = options.withBearerToken(bearer);
    }
    String command = stdio;
    if (command != null) {
      return McpClient.connectStdio(List.of("/bin/sh", "-c", "exec " + command), options);
    }
    return McpClient.connectHttp(URI.create(String.valueOf(url)), options);
  }

  private static String token(String text) {
    if (text.isBlank() || text.strip().chars().anyMatch(Character::isWhitespace)) {
      throw new UsageException(
          "--token takes the token alone: one word, without 'Bearer' or spaces");
    }
    return text.strip();
  }

  /** {@code --header "Name: value"}, checked as {@link ClientOptions#withHeader} checks it. */
  private static String[] header(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw new UsageException("--header takes \"Name: value\", not '" + text + "'");
    }
    String[] h = {text.substring(0, colon).strip(), text.substring(colon + 1).strip()};
    try {
      ClientOptions.defaults().withHeader(h[0], h[1]);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--header: " + e.getMessage());
    }
    return h;
  }

  private String target() {
    return stdio != null ? "'" + stdio + "'" : String.valueOf(url);
  }

  private int list(McpClient client, PrintStream out) throws IOException {
    List<Json> prompts = new ArrayList<>();
    Set<String> cursors = new HashSet<>();
    String cursor = null;
    do {
      JsonObject page = client.call(
          Methods.PROMPTS_LIST, JsonObject.builder().put("cursor", cursor).build());
      prompts.addAll(page.array("prompts").orElse(JsonArray.EMPTY).elements());
      cursor = page.string("nextCursor").filter(c -> !c.isEmpty()).orElse(null);
      if (cursor != null && !cursors.add(cursor)) {
        throw new IllegalStateException(
            "the server repeated a cursor; stopping after " + cursors.size() + " pages");
      }
    } while (cursor != null);
    if (json) {
      out.println(JsonCodec.write(
          JsonObject.builder().put("prompts", new JsonArray(prompts)).build()));
    } else {
      Render.promptTable(prompts, out);
    }
    return Main.OK;
  }

  private int get(
      McpClient client, PrintStream out, @Nullable FormHandler forms, Map<String, String> given)
      throws IOException {
    JsonObject result = client.getPromptJson(positional.getFirst(), given, forms);
    if (json) {
      out.println(JsonCodec.write(result));
    } else {
      Render.messages(result, out);
    }
    return Main.OK;
  }

  private int complete(McpClient client, PrintStream out) throws IOException {
    JsonObject.Builder context = JsonObject.builder();
    arguments.forEach(context::put);
    JsonObject result = client.call(
        Methods.COMPLETION_COMPLETE,
        JsonObject.builder()
            .put(
                "ref",
                JsonObject.builder()
                    .put("type", "ref/prompt")
                    .put("name", positional.get(0))
                    .build())
            .put(
                "argument",
                JsonObject.builder()
                    .put("name", positional.get(1))
                    .put("value", positional.get(2))
                    .build())
            .put(
                "context",
                JsonObject.builder().put("arguments", context.build()).build())
            .build());
    if (json) {
      out.println(JsonCodec.write(result));
    } else {
      Render.completion(result, out);
    }
    return Main.OK;
  }

  private int watch(McpClient client, PrintStream out) throws IOException, InterruptedException {
    CountDownLatch forever = new CountDownLatch(1);
    AutoCloseable handle = client.watchPrompts(() -> {
      int count = -1;
      try {
        count = client.listPrompts().size();
      } catch (IOException | RuntimeException e) {
        out.println(
            json
                ? "{\"event\":\"error\"}"
                : "prompts changed (could not list them: " + e.getMessage() + ")");
      }
      out.println(
          json
              ? "{\"event\":\"prompts/list_changed\",\"prompts\":" + count + "}"
              : LocalTime.now(ZoneId.systemDefault()).withNano(0) + "  prompts changed: " + count
                  + " prompt(s)");
      out.flush();
    });
    out.println(
        json
            ? "{\"event\":\"watching\"}"
            : "watching " + target() + " for prompt list changes (Ctrl-C to stop)");
    out.flush();
    try {
      forever.await();
    } finally {
      try {
        handle.close();
      } catch (Exception e) {
        // the connection is going away anyway
      }
    }
    return Main.OK;
  }

  /**
   * {@code @path} reads a file, {@code @-} reads stdin, {@code @@x} is the literal {@code @x}.
   *
   * @throws UsageException when the file cannot be read, naming the argument and the {@code @@}
   *     escape
   */
  private static String argumentValue(String name, String raw) {
    try {
      return readValue(raw);
    } catch (NoSuchFileException e) {
      throw new UsageException("the value of '" + name + "' is read from " + raw.substring(1)
          + ", which does not" + " exist (a value that starts with @ is written @@, e.g. " + name
          + "=@" + raw + ")");
    } catch (IOException e) {
      throw new UsageException("the value of '" + name + "' cannot be read from " + raw.substring(1)
          + ": " + describe(e));
    }
  }

  private static String readValue(String raw) throws IOException {
    if (raw.startsWith("@@")) {
      return raw.substring(1);
    }
    if (raw.equals("@-")) {
      return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (raw.startsWith("@")) {
      return Files.readString(Path.of(raw.substring(1)), StandardCharsets.UTF_8);
    }
    return raw;
  }

  /** An IO failure in words: refused connections named, never a bare class name or "null". */
  static String describe(IOException e) {
    return IoFailures.describe(e, null);
  }

  /** {@code --url}: an absolute http(s) URL with a host. */
  private static String url(String text) {
    try {
      URI u = new URI(text);
      if (("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null) {
        return text;
      }
    } catch (URISyntaxException e) {
      // said below
    }
    throw new UsageException(
        "--url needs an http:// or https:// URL, such as http://127.0.0.1:3000/mcp, not '" + text
            + "'");
  }

  private static String value(List<String> args, int i, String option) {
    if (i >= args.size()) {
      throw UsageException.of("value.missing", option);
    }
    return args.get(i);
  }

  private static Duration seconds(String s) {
    try {
      return Duration.ofMillis((long) (Double.parseDouble(s) * 1000));
    } catch (NumberFormatException e) {
      throw UsageException.of("value.seconds", "--timeout", s);
    }
  }
}
