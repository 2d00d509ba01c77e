package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.promptd.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenAI's Codex CLI 0.171.0, the real terminal client, in tmux against a real {@code promptd
 * serve}, offline: a fresh {@code CODEX_HOME} whose {@code config.toml} names a model provider at a
 * {@link ModelStandIn} speaking the Responses API ({@code wire_api = "responses"}, streamed), a
 * dummy key, no update check, no analytics, no background daemon, the project trusted. Over stdio
 * promptd runs behind a {@code tee} pair, so the test reads the MCP messages both ways.
 *
 * <p>What Codex does with MCP prompts: nothing. Its MCP client ({@code codex-mcp-client},
 * 2025-06-18) uses tools and resources only; it calls {@code tools/list} on a server that declares
 * no tools and, on promptd's -32601, marks the server failed. With {@code serve --prompts-as-tools}
 * it offers the model promptd's two tools in a namespace {@code mcp__promptd} ({@code get_prompt},
 * whose {@code name} enum lists every prompt, and {@code list_prompts}); both are read-only
 * ({@code readOnlyHint}), so it calls them without asking. It ignores
 * {@code notifications/tools/list_changed} unless started with {@code --enable
 * mcp_tool_list_changed}; then it lists the tools again at the next turn.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CodexCellsTest {
  private static final String CELL = "Codex CLI 0.171.0 (terminal, tmux) → promptd";
  private static final Path CODEX = Peers.INTEROP.resolve("clients/node_modules/.bin/codex");
  private static final Path SCREENS = Path.of("target", "client-screens");
  private static final List<String> EXAMPLES = List.of(
      "brand-colors",
      "explain",
      "git-commit-message",
      "review",
      "summarize",
      "translate",
      "write-tests");
  private static final Duration START = Duration.ofSeconds(120);
  private static final Duration REPLY = Duration.ofSeconds(90);
  private static final String ERA = "legacy 2025-06-18";
  /** The namespace Codex gives promptd's tools in the model request. */
  private static final String NAMESPACE = "\"name\":\"mcp__promptd\"";

  @TempDir
  Path dir;

  private @Nullable Tmux tmux;
  private @Nullable ModelStandIn model;
  private @Nullable Process server;
  /** Extra environment variables for the client (a token its configuration refers to). */
  private final Map<String, String> environment = new LinkedHashMap<>();
  /** What the stand-in model calls get_prompt with, by a word in the user's last message. */
  private final Map<String, String> calls = new ConcurrentHashMap<>();

  private final AtomicInteger responses = new AtomicInteger();
  private Path library = Path.of("");
  private Path sent = Path.of("");
  private Path received = Path.of("");

  @BeforeAll
  static void installed() {
    Tmux.require();
    boolean present = Files.isExecutable(CODEX) && Files.isExecutable(Path.of("/usr/bin/node"));
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "Codex CLI is missing in CI: npm ci --prefix interop/clients");
    }
    assumeThat(present)
        .as("Codex CLI installed in interop/clients (npm ci --prefix interop/clients)")
        .isTrue();
  }

  @AfterEach
  void close() throws Exception {
    if (tmux != null) {
      tmux.close();
    }
    if (model != null) {
      model.close();
    }
    if (server != null) {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    TerminalClients.endProcessesIn(dir.toString());
  }

  /** Cell 1a: promptd serving only prompts: Codex calls tools/list anyway and fails the server. */
  @Test
  void promptsOnlyServerFailsToStart() throws Exception {
    startStdio("stdio-prompts-only", List.of());
    // A turn starts once every MCP server has started or failed: the request offers no promptd
    // tool.
    say("hello from the lane");
    assertThat(model().await("hello from the lane", REPLY).body()).doesNotContain(NAMESPACE);
    tmux().awaitText("STANDIN-REPLY", REPLY);
    String screen = command("/mcp", s -> s.contains("promptd: failed (0 tools)"));
    assertThat(line(sent, "\"id\":1")).contains("\"method\":\"tools/list\"");
    assertThat(line(sent, "\"method\":\"initialize\""))
        .contains("\"name\":\"codex-mcp-client\"")
        .contains("\"protocolVersion\":\"2025-06-18\"");
    assertThat(Files.readString(sent, UTF_8)).doesNotContain("prompts/");
    save("stdio-prompts-only", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompts-only server fails to start: Codex calls tools/list although promptd declares"
            + " no tools (-32601), /mcp shows \"promptd: failed (0 tools)\"; it never sends prompts/list:"
            + " MCP prompts are not offered");
  }

  /**
   * Cell 1b: with --prompts-as-tools the two tools are listed, the seven prompts in get_prompt's
   * names.
   */
  @Test
  void stdioToolsAreListed() throws Exception {
    startStdio("stdio", List.of("--prompts-as-tools"));
    say("hello from the lane");
    String tools = tools("hello from the lane");
    assertThat(tools).contains("\"name\":\"get_prompt\"").contains("\"name\":\"list_prompts\"");
    for (String name : EXAMPLES) {
      assertThat(tools).contains("\"" + name + "\"");
    }
    tmux().awaitText("STANDIN-REPLY", REPLY);
    String screen = command(
        "/mcp verbose",
        s -> s.contains("promptd: connected (2 tools)")
            && s.contains("Tools: get_prompt, list_prompts"));
    assertThat(Files.readString(sent, UTF_8)).doesNotContain("prompts/");
    save("stdio", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "with serve --prompts-as-tools: the tools get_prompt (the 7 prompts as its names) and"
            + " list_prompts offered to the model in the namespace mcp__promptd, shown by /mcp verbose; no"
            + " prompts/list");
  }

  /** Cell 2: the model calls get_prompt; the rendered prompt reaches it, no approval asked. */
  @Test
  void aPromptUsedAsAToolReachesTheModel() throws Exception {
    startStdio("get-prompt", List.of("--prompts-as-tools"));
    calls.put("render-explain", "{\"name\":\"explain\",\"arguments\":{\"code\":\"x = x + 1\"}}");
    say("please render-explain");
    ModelStandIn.Exchange result =
        model().await("Explain the following code for a reader at beginner level.", REPLY);
    assertThat(result.body()).contains("\"type\":\"function_call_output\"").contains("x = x + 1");
    String screen = tmux()
        .await(
            "the call and the model's answer",
            REPLY,
            s -> s.contains("Called promptd.get_prompt") && s.contains("STANDIN-REPLY"));
    save("get-prompt", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "get_prompt called by the model (explain, only its required argument): run without"
            + " asking (readOnlyHint), shown as \"Called promptd.get_prompt\"; the tool output sent back"
            + " to the model carries the rendered prompt, the default audience filled in");
  }

  /** Cell 3: arguments reach the template: repeated spaces, an enum value, an optional one. */
  @Test
  void argumentsReachTheTemplate() throws Exception {
    startStdio("arguments", List.of("--prompts-as-tools"));
    calls.put(
        "render-translate",
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"good   morning, dear friend\","
            + "\"language\":\"French\",\"tone\":\"formal\"}}");
    say("please render-translate");
    ModelStandIn.Exchange result =
        model().await("Translate the text below into French, in a formal register.", REPLY);
    assertThat(result.body())
        .contains("\"type\":\"function_call_output\"")
        .contains("good   morning, dear friend");
    assertThat(line(sent, "\"method\":\"tools/call\""))
        .contains("\"name\":\"get_prompt\"")
        .contains("\"language\":\"French\"");
    String screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    save("arguments", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "get_prompt with arguments (translate: text with repeated spaces, language, tone):"
            + " tools/call carries them as given, the rendered prompt reaches the model with the text"
            + " intact");
  }

  /** Cell 4: a prompt file with an error is not among get_prompt's names; the others are. */
  @Test
  void aPromptWithAnErrorIsNotOffered() throws Exception {
    Files.writeString(library().resolve("greeting.prompt.md"), """
        ---
        title: Greeting
        description: Greets someone.
        ---
        Hello {{name}}
        """, UTF_8);
    startStdio("library-error", List.of("--prompts-as-tools"));
    say("hello from the lane");
    String tools = tools("hello from the lane");
    for (String name : EXAMPLES) {
      assertThat(tools).contains("\"" + name + "\"");
    }
    assertThat(tools).doesNotContain("greeting");
    assertThat(Files.readString(dir.resolve("promptd.err"), UTF_8))
        .contains("greeting.prompt.md:5: error: template uses 'name' but no argument 'name' is"
            + " declared");
    String screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    save("library-error", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompt file with an error (template uses an undeclared argument) is not in"
            + " get_prompt's names; the 7 others are; promptd logs the error with FILE:LINE");
  }

  /** Cell 5: a missing required argument comes back to the model as a tool error. */
  @Test
  void aMissingArgumentIsAToolError() throws Exception {
    startStdio("missing", List.of("--prompts-as-tools"));
    calls.put(
        "render-missing", "{\"name\":\"translate\",\"arguments\":{\"text\":\"good morning\"}}");
    say("please render-missing");
    ModelStandIn.Exchange result = model().await("missing required argument 'language'", REPLY);
    assertThat(result.body()).contains("\"type\":\"function_call_output\"");
    String screen = tmux()
        .await(
            "the failed call and the model's answer",
            REPLY,
            s -> s.contains("Failed promptd.get_prompt") && s.contains("STANDIN-REPLY"));
    assertThat(screen).contains("prompt 'translate': missing required argument 'language'");
    assertThat(line(sent, "\"method\":\"initialize\""))
        .contains("\"elicitation\":{\"form\":{},\"url\":{}}");
    assertThat(Files.readString(sent, UTF_8)).doesNotContain("elicitation/create");
    save("missing", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "get_prompt without a required argument: promptd's tool error shown (Failed"
            + " promptd.get_prompt … missing required argument 'language') and sent to the model; no"
            + " form: Codex declares form and URL elicitation, but promptd asks only within prompts/get");
  }

  /** Cell 6a: without the feature flag, a new prompt file is not offered until a restart. */
  @Test
  void listChangedIsIgnoredByDefault() throws Exception {
    startStdio("list-changed-ignored", List.of("--prompts-as-tools"));
    say("hello before");
    tmux().awaitText("STANDIN-REPLY", REPLY);
    addHaiku();
    say("hello after");
    assertThat(tools("hello after")).contains("get_prompt").doesNotContain("haiku");
    assertThat(Files.readString(sent, UTF_8).split("\"method\":\"tools/list\"", -1))
        .hasSize(2);
    save("list-changed-ignored", tmux().awaitText("STANDIN-REPLY", REPLY));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "by default notifications/tools/list_changed is ignored: a prompt file added while it"
            + " runs is not in get_prompt's names at the next turn (no second tools/list)");
  }

  /**
   * Cell 6b: with --enable mcp_tool_list_changed a new prompt file is offered at the next turn and
   * renders.
   */
  @Test
  void listChangedIsFollowedWithTheFlag() throws Exception {
    startStdio("list-changed", List.of("--prompts-as-tools"), "--enable", "mcp_tool_list_changed");
    say("hello before");
    tmux().awaitText("STANDIN-REPLY", REPLY);
    addHaiku();
    calls.put(
        "render-haiku", "{\"name\":\"haiku\",\"arguments\":{\"topic\":\"autumn rain on tin\"}}");
    say("please render-haiku");
    assertThat(tools("please render-haiku")).contains("\"haiku\"");
    model().await("Write a haiku about autumn rain on tin.", REPLY);
    String screen =
        tmux().await("two answers", REPLY, s -> s.split("STANDIN-REPLY", -1).length >= 3);
    save("list-changed", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "with --enable mcp_tool_list_changed: a prompt file added while it runs is in"
            + " get_prompt's names at the next turn (tools/list again) and renders");
  }

  /** Cell 7: Streamable HTTP with the bearer token, configured by what promptd clients prints. */
  @Test
  void httpWithBearerToken() throws Exception {
    Path lib = library();
    int port = Peers.freePort();
    Path access = dir.resolve("access.log");
    server = Peers.startHttp(
        PromptdServer.httpCommand(
            lib,
            port,
            "--prompts-as-tools",
            "--token",
            "lane-secret",
            "--access-log",
            access.toString()),
        port);
    String printed = PromptdServer.clients(
        Path.of("promptd"), "--http", Peers.mcpUrl(port).toString(), "--client", "codex");
    assertThat(printed)
        .isEqualTo("[mcp_servers.promptd]\nurl = \"" + Peers.mcpUrl(port)
            + "\"\nbearer_token_env_var = \"PROMPTD_TOKEN\"");
    environment.put("PROMPTD_TOKEN", "lane-secret");
    start("http", printed + "\n", List.of());
    Poll.until(
        START,
        Duration.ofMillis(200),
        () -> "Codex lists promptd's tools over HTTP",
        () -> Files.readString(access, UTF_8).contains("\"method\":\"tools/list\""));
    calls.put(
        "render-http",
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"see you soon\",\"language\":"
            + "\"German\"}}");
    say("please render-http");
    ModelStandIn.Exchange result =
        model().await("Translate the text below into German, in a neutral register.", REPLY);
    assertThat(result.body()).contains("see you soon");
    String screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    assertThat(Files.readString(access, UTF_8))
        .contains("\"era\":\"legacy\"")
        .contains("\"method\":\"tools/call\"")
        .doesNotContain("\"status\":401")
        .doesNotContain("prompts/list");
    save("http", screen);
    Matrix.record(
        CELL,
        "Streamable HTTP, bearer token",
        ERA,
        "with serve --prompts-as-tools: connected with the token from the variable named by"
            + " bearer_token_env_var (the config.toml table promptd clients prints), get_prompt called"
            + " by the model renders (default tone filled in); no 401, no prompts/list in promptd's"
            + " access log");
  }

  // --- helpers

  private Path library() throws Exception {
    if (library.toString().isEmpty()) {
      library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    }
    return library;
  }

  private void addHaiku() throws Exception {
    Files.writeString(library.resolve("haiku.prompt.md"), """
        ---
        title: Haiku
        description: Write a haiku about a topic.
        arguments:
          - name: topic
            required: true
        ---
        Write a haiku about {{topic}}.
        """, UTF_8);
    Poll.until(
        Duration.ofSeconds(60),
        Duration.ofMillis(200),
        () -> "promptd sends notifications/tools/list_changed",
        () -> Files.readString(received, UTF_8).contains("notifications/tools/list_changed"));
  }

  /**
   * Starts Codex with promptd over stdio behind tee (sent: what Codex wrote; received: what promptd
   * wrote), {@code flags} for serve and {@code options} for Codex.
   */
  private void startStdio(String cell, List<String> flags, String... options) throws Exception {
    Path lib = library();
    sent = dir.resolve("mcp-sent.jsonl");
    received = dir.resolve("mcp-received.jsonl");
    Files.writeString(sent, "", UTF_8);
    Files.writeString(received, "", UTF_8);
    String pipeline = "tee -a " + PromptdServer.shell(List.of(sent.toString())) + " | "
        + PromptdServer.shell(PromptdServer.stdioCommand(lib, flags.toArray(String[]::new)))
        + " 2>>" + PromptdServer.shell(List.of(dir.resolve("promptd.err").toString()))
        + " | tee -a " + PromptdServer.shell(List.of(received.toString()));
    String table = "[mcp_servers.promptd]\n"
        + "command = " + toml("/bin/sh") + "\n"
        + "args = [" + toml("-c") + ", " + toml(pipeline) + "]\n"
        + "startup_timeout_sec = 60\n";
    start(cell, table, List.of(options));
    if (!flags.isEmpty()) {
      Poll.until(
          START,
          Duration.ofMillis(200),
          () -> "Codex lists promptd's tools",
          () -> Files.readString(received, UTF_8).contains("\"get_prompt\""));
    }
  }

  /** Starts Codex in tmux with {@code mcp} (its config.toml table for promptd). */
  private void start(String cell, String mcp, List<String> options) throws Exception {
    model = ModelStandIn.start(this::responses);
    Path home = Files.createDirectories(dir.resolve("home"));
    Path codexHome = Files.createDirectories(home.resolve(".codex"));
    Path project = Files.createDirectories(dir.resolve("project"));
    Files.writeString(
        codexHome.resolve("config.toml"),
        """
        model = "stand-in"
        model_provider = "stand-in"
        check_for_update_on_startup = false
        disable_paste_burst = true

        [analytics]
        enabled = false

        [features]
        daemon_auto_start = false

        [model_providers.stand-in]
        name = "Model stand-in"
        base_url = %s
        env_key = "STANDIN_API_KEY"
        wire_api = "responses"
        request_max_retries = 0
        stream_max_retries = 0

        [projects.%s]
        trust_level = "trusted"

        %s""".formatted(toml(model.url() + "/v1"), toml(project.toString()), mcp),
        UTF_8);
    Map<String, String> env = new LinkedHashMap<>(environment);
    env.put("HOME", home.toString());
    env.put("CODEX_HOME", codexHome.toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("STANDIN_API_KEY", "dummy-key");
    Files.createDirectories(SCREENS);
    Path log = SCREENS.resolve("codex-" + cell + ".log");
    Files.deleteIfExists(log);
    List<String> command = new ArrayList<>(List.of(CODEX.toString()));
    command.addAll(options);
    tmux = Tmux.start("codex-" + cell, project, env, command, 160, 50, log);
    tmux.await(
        "Codex's prompt line",
        START,
        s -> s.contains("OpenAI Codex (v0.171.0)") && s.contains("stand-in default"));
  }

  /**
   * promptd's tools (the namespace's JSON and what follows it) in the model request of the turn
   * whose user message is {@code message}, waiting for that request.
   */
  private String tools(String message) throws Exception {
    String[] found = {""};
    Poll.until(
        REPLY,
        Duration.ofMillis(200),
        () -> "a model request offering promptd's tools for \"" + message + "\"",
        () -> {
          for (ModelStandIn.Exchange e : model().requests()) {
            String body = e.body();
            if (body.contains(NAMESPACE) && body.contains(message)) {
              found[0] = body.substring(body.indexOf(NAMESPACE));
              return true;
            }
          }
          return false;
        });
    return found[0];
  }

  /** Types a message and sends it. */
  private void say(String text) throws Exception {
    tmux().type(text);
    tmux().awaitText(text, Duration.ofSeconds(20));
    tmux().awaitStable(Duration.ofSeconds(10));
    tmux().keys("Enter");
  }

  /** Runs a slash command and returns the screen once {@code shown} holds for it. */
  private String command(String line, Predicate<String> shown) throws Exception {
    tmux().type(line);
    tmux().awaitText(line, Duration.ofSeconds(20));
    tmux().awaitStable(Duration.ofSeconds(10)); // the command menu drawn: Enter now runs it
    tmux().keys("Enter");
    return tmux().await(line + " shows promptd", Duration.ofSeconds(30), shown);
  }

  /**
   * The stand-in model, the Responses API streamed: when the request offers promptd's tools and its
   * last input is the user's message naming a call in {@link #calls}, it calls
   * {@code mcp__promptd}'s {@code get_prompt} with that call's arguments; otherwise (a tool output,
   * the title Codex asks for, or no call named) it answers STANDIN-REPLY.
   */
  private ModelStandIn.Reply responses(ModelStandIn.Exchange request) {
    if (!request.method().equals("POST") || !request.path().endsWith("/responses")) {
      return new ModelStandIn.Reply(
          404, "application/json", "{\"error\":{\"message\":\"not here\"}}");
    }
    String body = request.body();
    int user = body.lastIndexOf("\"role\":\"user\"");
    int output = body.lastIndexOf("\"type\":\"function_call_output\"");
    String call = null;
    if (body.contains(NAMESPACE) && user > output) {
      String last = body.substring(user);
      for (Map.Entry<String, String> e : calls.entrySet()) {
        if (last.contains(e.getKey())) {
          call = e.getValue();
        }
      }
    }
    int n = responses.incrementAndGet();
    String item = call == null
        ? "{\"type\":\"message\",\"role\":\"assistant\",\"id\":\"msg_" + n + "\",\"content\":"
            + "[{\"type\":\"output_text\",\"text\":\"STANDIN-REPLY\"}]}"
        : "{\"type\":\"function_call\",\"id\":\"fc_" + n + "\",\"call_id\":\"call_" + n + "\","
            + "\"namespace\":\"mcp__promptd\",\"name\":\"get_prompt\",\"arguments\":"
            + TerminalClients.json(call) + "}";
    String reply = event("response.created", "\"response\":{\"id\":\"resp_" + n + "\"}")
        + event("response.output_item.done", "\"output_index\":0,\"item\":" + item)
        + event(
            "response.completed",
            "\"response\":{\"id\":\"resp_" + n + "\",\"usage\":{\"input_tokens\":1,"
                + "\"output_tokens\":1,\"total_tokens\":2}}");
    return new ModelStandIn.Reply(200, "text/event-stream", reply);
  }

  private static String event(String type, String members) {
    return "event: " + type + "\ndata: {\"type\":\"" + type + "\"," + members + "}\n\n";
  }

  /** {@code text} as a TOML basic string (JSON's string escapes are TOML's). */
  private static String toml(String text) {
    return TerminalClients.json(text);
  }

  private void save(String cell, String screen) throws Exception {
    Files.createDirectories(SCREENS);
    Files.writeString(SCREENS.resolve("codex-" + cell + ".txt"), screen, UTF_8);
  }

  private Tmux tmux() {
    assertThat(tmux).as("Codex started").isNotNull();
    return tmux;
  }

  private ModelStandIn model() {
    assertThat(model).as("model stand-in started").isNotNull();
    return model;
  }

  private static String line(Path file, String text) throws Exception {
    for (String l : Files.readAllLines(file, UTF_8)) {
      if (l.contains(text)) {
        return l;
      }
    }
    throw new AssertionError(
        "no line with " + text + " in " + file + ":\n" + Files.readString(file, UTF_8));
  }
}
