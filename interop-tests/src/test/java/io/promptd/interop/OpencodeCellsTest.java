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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * opencode 1.18.33, the real terminal client, in tmux against a real {@code promptd serve}: its
 * model is a {@link ModelStandIn} speaking OpenAI chat completions (the bundled
 * {@code @ai-sdk/openai-compatible} provider), so the test reads what a prompt put into the
 * conversation. Over stdio promptd runs behind a {@code tee} pair, so the test also reads the MCP
 * messages opencode sent and received.
 *
 * <p>What opencode does with MCP prompts (read in its bundled code, seen here): it offers each as a
 * slash command named {@code /SERVER:PROMPT} (listed as {@code /promptd:translate:mcp}). It fetches
 * the prompt with <em>placeholders</em> as the argument values ({@code $1}, {@code $2}, … in the
 * order of the prompt's arguments) and then substitutes the words typed after the command into the
 * rendered text, shell-like ({@code "quoted words"} stay one argument; the last argument takes the
 * rest of the line). A placeholder is no valid value for an enum (or otherwise validated) argument,
 * so promptd renders opencode's placeholders as they are, unchecked (ClientQuirks). Missing
 * arguments become empty text. It declares no elicitation (only {@code roots}) and does not follow
 * {@code prompts/list_changed}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class OpencodeCellsTest {
  /** Extra environment variables for the client (a token its configuration refers to). */
  private final Map<String, String> environment = new LinkedHashMap<>();

  private static final String CELL = "opencode 1.18.33 (terminal, tmux) → promptd";
  private static final Path OPENCODE = Peers.INTEROP.resolve("clients/node_modules/.bin/opencode");
  private static final Path SCREENS = Path.of("target", "client-screens");
  private static final List<String> EXAMPLES = List.of(
      "review",
      "git-commit-message",
      "explain",
      "write-tests",
      "summarize",
      "translate",
      "brand-colors");
  private static final Duration START = Duration.ofSeconds(90);
  private static final Duration REPLY = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private @Nullable Tmux tmux;
  private @Nullable ModelStandIn model;
  private @Nullable Process server;
  private Path library = Path.of("");
  private Path project = Path.of("");
  private Path home = Path.of("");
  private Path sent = Path.of("");
  private Path received = Path.of("");

  @BeforeAll
  static void installed() {
    Tmux.require();
    boolean present = Files.isExecutable(OPENCODE);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("opencode is missing in CI: npm ci --prefix interop/clients");
    }
    assumeThat(present)
        .as("opencode installed in interop/clients (npm ci --prefix interop/clients)")
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
   * Cell 1: over stdio the seven example prompts are offered as slash commands,
   * {@code /promptd:NAME}.
   */
  @Test
  void stdioPromptsAreOfferedAsSlashCommands() throws Exception {
    startStdio("stdio");
    String screen = menu();
    save("stdio", screen);
    String initialize = line(sent, "\"method\":\"initialize\"");
    assertThat(count(sent, "\"method\":\"prompts/list\""))
        .as("prompts/list requests, all pages (page size %d)", PromptdServer.PAGE_SIZE)
        .isGreaterThanOrEqualTo(4);
    Matrix.record(
        CELL,
        "stdio",
        era(initialize),
        "the 7 example prompts offered as slash commands /promptd:NAME (menu"
            + " label /promptd:NAME:mcp), listed across 4 pages");
  }

  /**
   * Cell 2: a command with arguments renders. opencode asks promptd for the prompt with {@code $1},
   * {@code $2} as the argument values and puts the typed words in their place: quoted words stay
   * together, the last argument takes the rest of the line. A prompt with an enum argument renders
   * too: promptd leaves opencode's placeholders unchecked.
   */
  @Test
  void argumentsReachTheTemplate() throws Exception {
    Files.writeString(library().resolve("letter.prompt.md"), """
        ---
        title: Letter
        description: Write a short letter.
        arguments:
          - name: recipient
            description: Who the letter is for
            required: true
          - name: points
            description: What the letter says
            required: true
        ---
        Write a short letter to {{recipient}} saying: {{points}}
        """, UTF_8);
    startStdio("arguments");
    menu();
    closeMenu();
    run("/promptd:letter \"Ada  Lovelace\" thanks for the   notes");
    model().await("Write a short letter to Ada  Lovelace saying: thanks for the notes", REPLY);
    assertThat(line(sent, "\"name\":\"letter\""))
        .as("prompts/get as opencode sent it")
        .contains("\"recipient\":\"$1\"")
        .contains("\"points\":\"$2\"");
    tmux().awaitText("STANDIN-REPLY", REPLY);

    // A prompt with an enum argument: promptd renders opencode's placeholders as they are
    // (ClientQuirks), and opencode puts the typed words in their place, the quoted sentence whole.
    run("/promptd:translate \"good morning, dear friend\" French formal");
    ModelStandIn.Exchange rendered =
        model().await("Translate the text below into French, in a formal register", REPLY);
    assertThat(rendered.body()).contains("good morning, dear friend");
    assertThat(line(sent, "\"name\":\"translate\"")).contains("\"language\":\"$2\"");
    assertThat(Files.readString(received, UTF_8)).doesNotContain("not '$2'");
    String screen =
        tmux().await("both replies", REPLY, s -> s.split("STANDIN-REPLY", -1).length >= 3);
    save("arguments", screen);
    Matrix.record(
        CELL,
        "stdio",
        era(line(sent, "\"method\":\"initialize\"")),
        "/promptd:letter \"Ada  Lovelace\""
            + " thanks for the   notes: prompts/get with recipient=$1, points=$2, the typed words put in their place (quotes"
            + " keep words together and their spacing, the last argument takes the rest); a prompt with an enum argument"
            + " (translate \"good morning, dear friend\" French formal) renders: promptd leaves opencode's placeholders"
            + " unchecked");
  }

  /**
   * Cell 3 (and 4): a missing required argument becomes empty text, with nothing shown; an invalid
   * enum value never reaches promptd (it sees the placeholder), so it goes into the text as typed.
   * No form: opencode declares no elicitation.
   */
  @Test
  void missingAndInvalidArguments() throws Exception {
    startStdio("invalid");
    String initialize = line(sent, "\"method\":\"initialize\"");
    assertThat(initialize).contains("\"roots\"").doesNotContain("elicitation");

    menu();
    closeMenu();
    // a trailing space closes the menu, so Enter sends the command instead of picking the menu's
    // entry
    run("/promptd:brand-colors ");
    model().await("```css\\n\\n```", REPLY);
    assertThat(line(sent, "\"name\":\"brand-colors\"")).contains("\"styles\":\"$1\"");
    tmux().awaitText("STANDIN-REPLY", REPLY);

    // An invalid enum value: promptd only ever sees the placeholder, so it cannot check it; the
    // word goes in as typed.
    run("/promptd:translate \"good morning\" Klingon");
    model().await("Translate the text below into Klingon", REPLY);
    String screen =
        tmux().await("both replies", REPLY, s -> s.split("STANDIN-REPLY", -1).length >= 3);
    assertThat(screen).doesNotContain("-32602").doesNotContain("must be one of");
    save("invalid", screen);
    Matrix.record(
        CELL,
        "stdio",
        era(initialize),
        "missing required argument (/promptd:brand-colors alone): rendered"
            + " with empty text, nothing shown; invalid enum value (Klingon): promptd sees only the placeholder $2, so the"
            + " typed word goes into the text unchecked; no form: the client declares only roots, no elicitation");
  }

  /**
   * Cell 5: a prompt file added while opencode runs: promptd says list_changed, opencode does not
   * offer it.
   */
  @Test
  void listChangedIsNotFollowed() throws Exception {
    startStdio("list-changed");
    menu();
    Files.writeString(library.resolve("haiku.prompt.md"), """
        ---
        title: Haiku
        description: Write a haiku about a topic.
        arguments:
          - name: topic
            description: The topic
            required: true
        ---
        Write a haiku about {{topic}}.
        """, UTF_8);
    Poll.until(
        Duration.ofSeconds(60),
        Duration.ofMillis(200),
        () -> "promptd sends notifications/prompts/list_changed",
        () -> Files.readString(received, UTF_8).contains("notifications/prompts/list_changed"));
    closeMenu();
    String screen = menu();
    // opencode keeps its command list for the life of the instance: give it time it would need to
    // re-list
    TimeUnit.SECONDS.sleep(10);
    tmux().keys("BSpace");
    tmux().type("d");
    screen = tmux()
        .await(
            "the menu again, with the 7 examples",
            Duration.ofSeconds(20),
            OpencodeCellsTest::offersAll);
    assertThat(screen).doesNotContain("/promptd:haiku");
    save("list-changed", screen);
    Matrix.record(
        CELL,
        "stdio",
        era(line(sent, "\"method\":\"initialize\"")),
        "list_changed not followed: a prompt"
            + " file added while it runs (promptd sent notifications/prompts/list_changed) is not offered until a restart;"
            + " the 7 prompts stay offered");
  }

  /** Cell 6: Streamable HTTP with a bearer token in the config's headers: offered and renders. */
  @Test
  void httpWithBearerToken() throws Exception {
    Path lib = library();
    Files.writeString(lib.resolve("letter.prompt.md"), """
        ---
        title: Letter
        description: Write a short letter.
        arguments:
          - name: recipient
            required: true
          - name: points
            required: true
        ---
        Write a short letter to {{recipient}} saying: {{points}}
        """, UTF_8);
    int port = Peers.freePort();
    Path access = dir.resolve("access.log");
    server = Peers.startHttp(
        PromptdServer.httpCommand(
            lib, port, "--token", "lane-secret", "--access-log", access.toString()),
        port);
    // The configuration promptd clients prints, the token taken from PROMPTD_TOKEN by opencode's
    // {env:…}.
    Map<String, Object> mcp = new LinkedHashMap<>();
    mcp.put("type", "remote");
    mcp.put("url", Peers.mcpUrl(port).toString());
    mcp.put("headers", Map.of("Authorization", "Bearer {env:PROMPTD_TOKEN}"));
    mcp.put("oauth", false);
    mcp.put("enabled", true);
    String printed = PromptdServer.clients(
        Path.of("promptd"), "--http", Peers.mcpUrl(port).toString(), "--client", "opencode");
    assertThat(JsonCodec.parse(printed))
        .isEqualTo(JsonCodec.parse(TerminalClients.json(
            Map.of("$schema", "https://opencode.ai/config.json", "mcp", Map.of("promptd", mcp)))));
    mcp.put("timeout", 60000); // this test's promptd starts without the launcher's start-up cache
    environment.put("PROMPTD_TOKEN", "lane-secret");
    start("http", mcp);
    String screen = menu();
    closeMenu();
    run("/promptd:letter \"Grace Hopper\" the compiler works");
    model().await("Write a short letter to Grace Hopper saying: the compiler works", REPLY);
    screen = tmux().awaitText("STANDIN-REPLY", REPLY);
    String log = Files.readString(access, UTF_8);
    assertThat(log)
        .contains("\"method\":\"prompts/get\",\"prompt\":\"letter\",\"outcome\":\"ok\"")
        .doesNotContain("\"status\":401");
    save("http", screen);
    Matcher era = Pattern.compile("\"era\":\"([^\"]+)\"").matcher(log);
    Matrix.record(
        CELL,
        "Streamable HTTP, bearer token",
        era.find() ? era.group(1) : "?",
        "the prompts offered as"
            + " /promptd:NAME (Authorization header from the config), /promptd:letter rendered with quoted and trailing"
            + " words; no 401 in promptd's access log");
  }

  // --- helpers
  // -------------------------------------------------------------------------------------------------------

  private Path library() throws Exception {
    if (library.toString().isEmpty()) {
      library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    }
    return library;
  }

  /**
   * Starts opencode with promptd over stdio behind tee (sent: what opencode wrote; received: what
   * promptd wrote).
   */
  private void startStdio(String cell) throws Exception {
    Path lib = library();
    sent = dir.resolve("mcp-sent.jsonl");
    received = dir.resolve("mcp-received.jsonl");
    String pipeline = "tee -a " + PromptdServer.shell(List.of(sent.toString())) + " | "
        + PromptdServer.shell(PromptdServer.stdioCommand(lib)) + " 2>>"
        + PromptdServer.shell(List.of(dir.resolve("promptd.err").toString())) + " | tee -a "
        + PromptdServer.shell(List.of(received.toString()));
    Map<String, Object> mcp = new LinkedHashMap<>();
    mcp.put("type", "local");
    mcp.put("command", List.of("/bin/sh", "-c", pipeline));
    mcp.put("timeout", 60000);
    start(cell, mcp);
  }

  private void start(String cell, Map<String, Object> mcp) throws Exception {
    model = ModelStandIn.start(OpencodeCellsTest::chatCompletion);
    home = Files.createDirectories(dir.resolve("home"));
    project = Files.createDirectories(dir.resolve("project"));
    Map<String, Object> models = Map.of("stand-in", Map.of("name", "Stand-in"));
    Map<String, Object> provider = new LinkedHashMap<>();
    provider.put("npm", "@ai-sdk/openai-compatible");
    provider.put("name", "Stand-in");
    provider.put("options", Map.of("baseURL", model.url() + "/v1", "apiKey", "dummy-key"));
    provider.put("models", models);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("$schema", "https://opencode.ai/config.json");
    config.put("autoupdate", false);
    config.put("share", "disabled");
    config.put("model", "standin/stand-in");
    config.put("small_model", "standin/stand-in");
    config.put("provider", Map.of("standin", provider));
    config.put("mcp", Map.of("promptd", mcp));
    Files.writeString(project.resolve("opencode.json"), TerminalClients.json(config), UTF_8);

    Map<String, String> env = new LinkedHashMap<>(environment);
    env.put("HOME", home.toString());
    env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    env.put("XDG_DATA_HOME", home.resolve(".local/share").toString());
    env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
    env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
    env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
    env.put("OPENCODE_DISABLE_LSP_DOWNLOAD", "1");
    env.put("OPENCODE_DISABLE_SHARE", "1");
    env.put("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1");
    env.put("OPENCODE_DISABLE_CLAUDE_CODE", "1");
    env.put("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1");
    Files.createDirectories(SCREENS);
    Path log = SCREENS.resolve("opencode-" + cell + ".log");
    Files.deleteIfExists(log);
    tmux = Tmux.start("opencode-" + cell, project, env, List.of(OPENCODE.toString()), 160, 50, log);
    tmux.await("opencode's prompt box", START, s -> s.contains("ctrl+p commands"));
  }

  /** Types {@code /promptd} and returns the screen once the menu offers all seven examples. */
  private String menu() throws Exception {
    tmux().type("/promptd");
    return tmux()
        .await(
            "the / menu offers the 7 example prompts as /promptd:NAME",
            START,
            OpencodeCellsTest::offersAll);
  }

  private static boolean offersAll(String screen) {
    for (String name : EXAMPLES) {
      if (!screen.contains("/promptd:" + name + ":mcp")) {
        return false;
      }
    }
    return true;
  }

  /** Erases the {@code /promptd} typed by {@link #menu()}, which closes the menu. */
  private void closeMenu() throws Exception {
    for (int i = 0; i < "/promptd".length(); i++) {
      tmux().keys("BSpace");
    }
    tmux().await("the menu closed", Duration.ofSeconds(20), s -> !s.contains("/promptd:review"));
  }

  /**
   * Types a command line into the (empty) prompt box and sends it. Before opencode has its command
   * list (the / menu offers the prompts), a command line is sent as plain text: callers open and
   * close the menu first.
   */
  private void run(String line) throws Exception {
    tmux().type(line);
    tmux()
        .await("the typed command", Duration.ofSeconds(20), s -> s.contains(line.substring(0, 20)));
    tmux().awaitStable(Duration.ofSeconds(10)); // the menu drawn: Enter now sends the line
    tmux().keys("Enter");
  }

  private void save(String cell, String screen) throws Exception {
    Files.createDirectories(SCREENS);
    Files.writeString(SCREENS.resolve("opencode-" + cell + ".txt"), screen, UTF_8);
  }

  private Tmux tmux() {
    assertThat(tmux).as("opencode started").isNotNull();
    return tmux;
  }

  private ModelStandIn model() {
    assertThat(model).as("model stand-in started").isNotNull();
    return model;
  }

  private Path opencodeLog() throws Exception {
    Path logs = home.resolve(".local/share/opencode/log");
    try (var files = Files.list(logs)) {
      return files
          .filter(f -> f.toString().endsWith(".log"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no opencode log in " + logs));
    }
  }

  /** The first line of {@code file} containing {@code text}. */
  private static String line(Path file, String text) throws Exception {
    for (String l : Files.readAllLines(file, UTF_8)) {
      if (l.contains(text)) {
        return l;
      }
    }
    throw new AssertionError(
        "no line with " + text + " in " + file + ":\n" + Files.readString(file, UTF_8));
  }

  private static long count(Path file, String text) throws Exception {
    return Files.readAllLines(file, UTF_8).stream()
        .filter(l -> l.contains(text))
        .count();
  }

  private static String era(String initialize) {
    Matcher m = Pattern.compile("\"protocolVersion\":\"([^\"]+)\"").matcher(initialize);
    return m.find() ? "legacy " + m.group(1) : "legacy";
  }

  /** An OpenAI chat-completions answer, streamed (SSE), to every POST; 404 to anything else. */
  private static ModelStandIn.Reply chatCompletion(ModelStandIn.Exchange request) {
    if (!request.method().equals("POST") || !request.path().endsWith("/chat/completions")) {
      return new ModelStandIn.Reply(
          404, "application/json", "{\"error\":{\"message\":\"not here\"}}");
    }
    String text =
        request.body().contains("You are a title generator") ? "Lane title" : "STANDIN-REPLY";
    String chunk =
        "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"stand-in\","
            + "\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}";
    String body =
        "data: " + chunk.formatted("{\"role\":\"assistant\",\"content\":\"" + text + "\"}", "null")
            + "\n\n" + "data: " + chunk.formatted("{}", "\"stop\"") + "\n\n" + "data: [DONE]\n\n";
    return new ModelStandIn.Reply(200, "text/event-stream", body);
  }
}
