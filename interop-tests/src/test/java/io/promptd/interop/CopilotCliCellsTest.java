package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * GitHub Copilot CLI 1.0.102, the real terminal client, in tmux against a real {@code promptd
 * serve}, offline ({@code COPILOT_OFFLINE=true}: no GitHub sign-in, update check or telemetry) with
 * its model a {@link ModelStandIn} speaking OpenAI chat completions
 * ({@code COPILOT_PROVIDER_BASE_URL}, BYOK). Over stdio promptd runs behind a {@code tee} pair, so
 * the test reads the MCP messages both ways.
 *
 * <p>What Copilot CLI does with MCP prompts: nothing. It speaks 2026-07-28
 * ({@code server/discover}, then {@code subscriptions/listen}) and calls {@code tools/list} even
 * when the server declares no tools; promptd answers -32601 and Copilot marks the server failed. It
 * never sends {@code prompts/list} or {@code prompts/get} (its runtime has them only for SDK
 * extensions). With {@code serve --prompts-as-tools} the prompts reach it as two tools,
 * {@code promptd-list_prompts} and {@code promptd-get_prompt} (whose {@code name} enum lists every
 * prompt), for the model to call: the stand-in model calls {@code get_prompt} and the test reads
 * the rendered prompt in the tool result the client sends back. It declares form and URL
 * elicitation, but promptd asks only within {@code prompts/get}, so no form appears: a missing or
 * invalid argument comes back as a tool error, shown on screen.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CopilotCliCellsTest {
  /** Extra environment variables for the client (a token its configuration refers to). */
  private final Map<String, String> environment = new LinkedHashMap<>();

  private static final String CELL = "GitHub Copilot CLI 1.0.102 (terminal, tmux) → promptd";
  private static final Path COPILOT = Peers.INTEROP.resolve("clients/node_modules/.bin/copilot");
  private static final Path SCREENS = Path.of("target", "client-screens");
  /**
   * Where Copilot unpacks its bundled package (235 MB) once per build instead of once per test's
   * HOME.
   */
  private static final Path CACHE = Path.of("target", "copilot-cache").toAbsolutePath();

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
  private static final String ERA = "modern 2026-07-28";

  @TempDir
  Path dir;

  private @Nullable Tmux tmux;
  private @Nullable ModelStandIn model;
  private @Nullable Process server;
  private final Map<String, String> calls = new ConcurrentHashMap<>();
  /** Tool call ids must differ: Copilot shows only the first of several calls with the same id. */
  private final AtomicInteger toolCalls = new AtomicInteger();

  private Path library = Path.of("");
  private Path sent = Path.of("");
  private Path received = Path.of("");

  @BeforeAll
  static void installed() {
    Tmux.require();
    boolean present = Files.isExecutable(COPILOT) && Files.isExecutable(Path.of("/usr/bin/node"));
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "Copilot CLI is missing in CI: npm ci --prefix interop/clients");
    }
    assumeThat(present)
        .as("Copilot CLI installed in interop/clients (npm ci --prefix interop/clients)")
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

  /**
   * Cell 1a: promptd serving only prompts over stdio: Copilot calls tools/list anyway and gives up
   * on the server.
   */
  @Test
  void promptsOnlyServerIsNotConnected() throws Exception {
    startStdio("stdio-prompts-only");
    String screen = tmux()
        .await(
            "Copilot's failure to connect to promptd",
            START,
            s -> s.contains("Failed to connect to MCP server \"promptd\"")
                && s.contains("tools/list"));
    assertThat(screen).contains("Method not found: tools/list");
    assertThat(line(received, "\"id\":0"))
        .contains("\"capabilities\":{\"prompts\"")
        .doesNotContain("\"tools\"");
    assertThat(Files.readString(sent, UTF_8))
        .contains("\"method\":\"tools/list\"")
        .doesNotContain("prompts/list");
    save("stdio-prompts-only", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompts-only server is not connected: Copilot calls tools/list although"
            + " promptd declares no tools (-32601) and shows \"Failed to connect to MCP server\"; it never sends"
            + " prompts/list or prompts/get: MCP prompts are not offered in the terminal");
  }

  /**
   * Cell 1b: with --prompts-as-tools the seven prompts are offered to the model as the get_prompt
   * tool's names.
   */
  @Test
  void stdioPromptsAreOfferedAsTools() throws Exception {
    startStdio("stdio", "--prompts-as-tools");
    say("hello from the lane");
    ModelStandIn.Exchange first = model().await("promptd-get_prompt", REPLY);
    assertThat(first.body()).contains("\"name\":\"promptd-list_prompts\"");
    String names = first.body().substring(first.body().indexOf("\"name\":\"promptd-get_prompt\""));
    for (String name : EXAMPLES) {
      assertThat(names).contains("\"" + name + "\"");
    }
    tmux().awaitText("STANDIN-REPLY", REPLY);
    tmux().type("/mcp show promptd");
    tmux().keys("Enter");
    String screen = tmux()
        .await(
            "/mcp show promptd lists the two tools",
            Duration.ofSeconds(30),
            s -> s.contains("get_prompt:") && s.contains("list_prompts:"));
    assertThat(Files.readString(sent, UTF_8)).doesNotContain("prompts/list");
    save("stdio", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "with serve --prompts-as-tools: the 7 prompts offered to the model as the"
            + " names of the tool promptd-get_prompt (and promptd-list_prompts), shown by /mcp show promptd; not as slash"
            + " commands (no prompts/list)");
  }

  /**
   * Cell 2: the model calls get_prompt with arguments; the rendered prompt goes back to it,
   * multi-word text intact.
   */
  @Test
  void argumentsReachTheTemplate() throws Exception {
    startStdio("arguments", "--prompts-as-tools");
    calls.put(
        "render-translate",
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"good   morning, dear friend\","
            + "\"language\":\"French\",\"tone\":\"formal\"}}");
    say("please render-translate");
    ModelStandIn.Exchange result =
        model().await("Translate the text below into French, in a formal register.", REPLY);
    assertThat(result.body()).contains("\"role\":\"tool\"").contains("good   morning, dear friend");
    assertThat(line(sent, "\"method\":\"tools/call\""))
        .contains("\"name\":\"get_prompt\"")
        .contains("\"language\":\"French\"");
    String screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    save("arguments", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "get_prompt called by the model (translate: text with repeated spaces,"
            + " language, tone): tools/call rendered, the tool result the client sends back carries the prompt with the"
            + " text intact");
  }

  /**
   * Cells 3 and 4: a missing required argument and an invalid enum value come back as tool errors;
   * no form.
   */
  @Test
  void missingAndInvalidArguments() throws Exception {
    startStdio("invalid", "--prompts-as-tools");
    assertThat(line(sent, "\"method\":\"server/discover\""))
        .contains("\"elicitation\":{\"form\":{},\"url\":{}}");
    calls.put(
        "render-missing", "{\"name\":\"translate\",\"arguments\":{\"text\":\"good morning\"}}");
    say("please render-missing");
    tmux()
        .await(
            "the tool error for the missing argument",
            REPLY,
            s -> s.contains("missing required argument 'language'"));
    tmux().await("the model's answer", REPLY, s -> s.contains("STANDIN-REPLY"));
    calls.put(
        "render-invalid",
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"good morning\","
            + "\"language\":\"Klingon\"}}");
    say("please render-invalid");
    String screen = tmux()
        .await(
            "the tool error for the invalid value",
            REPLY,
            s -> s.contains("must be one of") && s.split("STANDIN-REPLY", -1).length >= 3);
    assertThat(screen).contains("Get a prompt (MCP: promptd)");
    model().await("missing required argument 'language'", REPLY);
    model().await("not 'Klingon'", REPLY);
    assertThat(Files.readString(sent, UTF_8))
        .doesNotContain("elicitation/create")
        .doesNotContain("prompts/get");
    save("invalid", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "via get_prompt: missing required argument and invalid enum value answered as"
            + " tool errors, shown on screen (✗ Get a prompt (MCP: promptd) … missing required argument 'language' / must"
            + " be one of …) and sent to the model; no form: form+URL elicitation declared but promptd asks only within"
            + " prompts/get, which Copilot never calls");
  }

  /**
   * Cell 5: a prompt file added while Copilot runs: tools list_changed, the next turn offers it.
   */
  @Test
  void listChangedReachesTheNextTurn() throws Exception {
    startStdio("list-changed", "--prompts-as-tools");
    say("hello before");
    tmux().awaitText("STANDIN-REPLY", REPLY);
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
    calls.put(
        "render-haiku", "{\"name\":\"haiku\",\"arguments\":{\"topic\":\"autumn rain on tin\"}}");
    say("please render-haiku");
    model().await("\"haiku\",\"review\"", REPLY);
    model().await("Write a haiku about autumn rain on tin.", REPLY);
    String screen =
        tmux().await("two answers", REPLY, s -> s.split("STANDIN-REPLY", -1).length >= 3);
    save("list-changed", screen);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "list_changed followed (as tools): a prompt file added while it runs is in"
            + " get_prompt's names at the next turn (tools/list again after notifications/tools/list_changed) and renders");
  }

  /** Cell 6: Streamable HTTP with a bearer token in mcp-config.json's headers. */
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
    // The configuration promptd clients prints, the token taken from PROMPTD_TOKEN by Copilot's
    // ${…}.
    Map<String, Object> mcp = new LinkedHashMap<>();
    mcp.put("type", "http");
    mcp.put("url", Peers.mcpUrl(port).toString());
    mcp.put("headers", Map.of("Authorization", "Bearer ${PROMPTD_TOKEN}"));
    mcp.put("tools", List.of("*"));
    String printed = PromptdServer.clients(
        Path.of("promptd"), "--http", Peers.mcpUrl(port).toString(), "--client", "copilot-cli");
    assertThat(JsonCodec.parse(printed))
        .isEqualTo(
            JsonCodec.parse(TerminalClients.json(Map.of("mcpServers", Map.of("promptd", mcp)))));
    environment.put("PROMPTD_TOKEN", "lane-secret");
    start("http", mcp);
    calls.put(
        "render-http",
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"see you soon\",\"language\":"
            + "\"German\"}}");
    say("please render-http");
    ModelStandIn.Exchange result =
        model().await("Translate the text below into German, in a neutral register.", REPLY);
    assertThat(result.body()).contains("see you soon");
    String screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    String log = Files.readString(access, UTF_8);
    assertThat(log)
        .contains("\"method\":\"tools/call\"")
        .doesNotContain("\"status\":401")
        .doesNotContain("prompts/list");
    save("http", screen);
    Matrix.record(
        CELL,
        "Streamable HTTP, bearer token",
        ERA,
        "with serve --prompts-as-tools: connected with the"
            + " Authorization header from mcp-config.json, get_prompt called by the model renders (default tone filled"
            + " in); no 401, no prompts/list in promptd's access log");
  }

  // --- helpers
  // -------------------------------------------------------------------------------------------------------

  private Path library() throws Exception {
    if (library.toString().isEmpty()) {
      library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    }
    return library;
  }

  private void startStdio(String cell, String... flags) throws Exception {
    Path lib = library();
    sent = dir.resolve("mcp-sent.jsonl");
    received = dir.resolve("mcp-received.jsonl");
    Files.writeString(sent, "", UTF_8);
    Files.writeString(received, "", UTF_8);
    String pipeline = "tee -a " + PromptdServer.shell(List.of(sent.toString())) + " | "
        + PromptdServer.shell(PromptdServer.stdioCommand(lib, flags)) + " 2>>"
        + PromptdServer.shell(List.of(dir.resolve("promptd.err").toString())) + " | tee -a "
        + PromptdServer.shell(List.of(received.toString()));
    Map<String, Object> mcp = new LinkedHashMap<>();
    mcp.put("type", "local");
    mcp.put("command", "/bin/sh");
    mcp.put("args", List.of("-c", pipeline));
    mcp.put("tools", List.of("*"));
    mcp.put("timeout", 60000);
    start(cell, mcp);
  }

  private void start(String cell, Map<String, Object> mcp) throws Exception {
    model = ModelStandIn.start(this::chatCompletion);
    Path home = Files.createDirectories(dir.resolve("home"));
    Path project = Files.createDirectories(dir.resolve("project"));
    Files.createDirectories(home.resolve(".copilot"));
    Files.writeString(
        home.resolve(".copilot/mcp-config.json"),
        TerminalClients.json(Map.of("mcpServers", Map.of("promptd", mcp))),
        UTF_8);
    Files.createDirectories(CACHE);
    Map<String, String> env = new LinkedHashMap<>(environment);
    env.put("HOME", home.toString());
    env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
    env.put("XDG_CACHE_HOME", CACHE.toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("COPILOT_OFFLINE", "true");
    env.put("COPILOT_PROVIDER_BASE_URL", model.url() + "/v1");
    env.put("COPILOT_PROVIDER_API_KEY", "dummy-key");
    env.put("COPILOT_MODEL", "stand-in");
    env.put("COPILOT_AUTO_UPDATE", "false");
    // "true" exactly: tools run without asking and the folder is trusted without the trust dialog
    env.put("COPILOT_ALLOW_ALL", "true");
    Files.createDirectories(SCREENS);
    Path log = SCREENS.resolve("copilot-cli-" + cell + ".log");
    Files.deleteIfExists(log);
    tmux = Tmux.start(
        "copilot-" + cell,
        project,
        env,
        List.of(COPILOT.toString(), "--no-auto-update", "--disable-client-telemetry"),
        160,
        50,
        log);
    tmux.await(
        "Copilot's prompt line",
        START,
        s -> s.contains("Copilot v1.0.102") && s.contains("stand-in"));
    if (!cell.equals("stdio-prompts-only") && mcp.get("type").equals("local")) {
      Poll.until(
          START,
          Duration.ofMillis(200),
          () -> "Copilot lists promptd's tools",
          () -> Files.readString(received, UTF_8).contains("\"get_prompt\""));
    }
  }

  /** Types a message and sends it. */
  private void say(String text) throws Exception {
    tmux().type(text);
    tmux().awaitText(text, Duration.ofSeconds(20));
    tmux().awaitStable(Duration.ofSeconds(10)); // suggestions drawn: Enter now sends the line
    tmux().keys("Enter");
  }

  /**
   * The stand-in model: when the last message is the user's and names a call registered in
   * {@link #calls}, it calls {@code promptd-get_prompt} with that call's arguments; otherwise (a
   * tool result, or no call named) it answers STANDIN-REPLY. Streamed (SSE), as Copilot asks.
   */
  private ModelStandIn.Reply chatCompletion(ModelStandIn.Exchange request) {
    if (!request.method().equals("POST") || !request.path().endsWith("/chat/completions")) {
      return new ModelStandIn.Reply(
          404, "application/json", "{\"error\":{\"message\":\"not here\"}}");
    }
    String body = request.body();
    int user = body.lastIndexOf("\"role\":\"user\"");
    int tool = body.lastIndexOf("\"role\":\"tool\"");
    String call = null;
    if (user > tool) {
      String last = body.substring(user);
      for (Map.Entry<String, String> e : calls.entrySet()) {
        if (last.contains(e.getKey())) {
          call = e.getValue();
        }
      }
    }
    String chunk =
        "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"stand-in\","
            + "\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}";
    String first = call == null
        ? "{\"role\":\"assistant\",\"content\":\"STANDIN-REPLY\"}"
        : "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_lane_"
            + toolCalls.incrementAndGet()
            + "\",\"type\":\"function\","
            + "\"function\":{\"name\":\"promptd-get_prompt\",\"arguments\":"
            + TerminalClients.json(call) + "}}]}";
    String reply = "data: " + chunk.formatted(first, "null") + "\n\n" + "data: "
        + chunk.formatted("{}", call == null ? "\"stop\"" : "\"tool_calls\"") + "\n\n"
        + "data: [DONE]\n\n";
    return new ModelStandIn.Reply(200, "text/event-stream", reply);
  }

  private void save(String cell, String screen) throws Exception {
    Files.createDirectories(SCREENS);
    Files.writeString(SCREENS.resolve("copilot-cli-" + cell + ".txt"), screen, UTF_8);
  }

  private Tmux tmux() {
    assertThat(tmux).as("Copilot started").isNotNull();
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
