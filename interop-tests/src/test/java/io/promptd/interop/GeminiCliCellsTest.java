package io.promptd.interop;

import static io.promptd.interop.GeminiFamily.EXAMPLE_PROMPTS;
import static io.promptd.interop.GeminiFamily.START;
import static io.promptd.interop.GeminiFamily.STEP;
import static io.promptd.interop.GeminiFamily.notOffered;
import static io.promptd.interop.GeminiFamily.offered;
import static io.promptd.interop.GeminiFamily.submit;
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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gemini CLI 0.61.0, the real terminal client in tmux, against real {@code promptd serve} processes
 * (stdio, and Streamable HTTP with a bearer token). Its model API is a {@link ModelStandIn}
 * ({@code GOOGLE_GEMINI_BASE_URL}), so what a rendered prompt put into the conversation is read
 * from the request the client sent.
 *
 * <p>Two rules of this client shape the cells (both read in its bundle, see the lane report):
 *
 * <ul>
 *   <li>its slash-command list is rebuilt only when the config finishes initialising and when an
 *       MCP server's <em>status</em> changes (connecting, connected, disconnected) — not when the
 *       server's prompts have been listed, nor on {@code notifications/prompts/list_changed}.
 *       promptd's prompts are registered after the "connected" rebuild, so at start-up they are
 *       usually missing from the commands although {@code /mcp list} shows them; {@code /mcp
 *       refresh} (which rebuilds the commands explicitly) is the user's way round it, and the cells
 *       use it;
 *   <li>it asks {@code prompts/list} once, without following {@code nextCursor}: only the first
 *       page is offered.
 * </ul>
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GeminiCliCellsTest {
  static final String CELL = "Gemini CLI 0.61.0 (terminal, tmux) → promptd";
  static final String CLIENT = "gemini-cli";
  static final String ERA = "legacy 2025-06-18";
  static final String REPLY = "STAND-IN REPLY";
  static final Path GEMINI = GeminiFamily.CLIENTS.resolve("gemini");

  /** Extra environment variables for the client (a token its configuration refers to). */
  private final Map<String, String> environment = new LinkedHashMap<>();

  @TempDir
  Path dir;

  @Nullable
  Tmux tmux;

  @Nullable
  ModelStandIn model;

  @Nullable
  Process http;

  String cell = "unnamed";

  @BeforeAll
  static void clientInstalled() {
    Tmux.require();
    assumeThat(Files.isExecutable(GEMINI))
        .as("Gemini CLI installed (npm ci --prefix interop/clients)")
        .isTrue();
  }

  @AfterEach
  void close() throws Exception {
    if (tmux != null) {
      GeminiFamily.close(tmux, CLIENT, cell);
    }
    if (model != null) {
      model.close();
    }
    if (http != null) {
      http.destroy();
      if (!http.waitFor(10, TimeUnit.SECONDS)) {
        http.destroyForcibly();
      }
    }
  }

  @Test
  void stdioPromptsAreOfferedAsCommands() throws Exception {
    cell = "stdio-commands";
    Path library = library();
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(PromptdServer.stdioCommand(library, "--page-size", "500"))));
    awaitListed(7);
    // At start-up the commands were built before promptd's prompts were registered (see the class
    // comment): kept for the report, not asserted, as it depends on timing.
    boolean atStartUp = offered(tmux, "translate", Duration.ofSeconds(3));
    GeminiFamily.save(
        CLIENT,
        "stdio-startup",
        tmux.screen() + "\n[/translate offered at start-up: " + atStartUp + "]\n");
    refresh(7);
    assertThat(notOffered(tmux, EXAMPLE_PROMPTS))
        .as("example prompts not offered as /NAME [MCP]")
        .isEmpty();
    tmux.type("/translate");
    tmux.await("/translate suggested", STEP, s -> GeminiFamily.suggests(s, "translate"));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "the 7 example prompts offered as /NAME [MCP] commands, named as promptd names"
            + " them (after /mcp refresh: at start-up Gemini CLI builds its command list before prompts/list answers)");
  }

  @Test
  void commandArgumentsRenderIntoTheConversation() throws Exception {
    cell = "stdio-render";
    startModel();
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(PromptdServer.stdioCommand(library(), "--page-size", "500"))));
    refresh(7);

    submit(tmux, "/translate --text=\"good morning my friend\" --language=\"German\"");
    assertThat(model.await("into German", STEP).body())
        .contains("good morning my friend")
        .contains("in a neutral register");
    awaitReplies(1);

    // Positional arguments fill the required arguments still missing, in order; quotes group words.
    submit(tmux, "/translate \"good evening everyone\" French");
    assertThat(model.await("into French", STEP).body()).contains("good evening everyone");
    awaitReplies(2);

    // When one required argument is missing, all the positional words are joined into it.
    submit(tmux, "/summarize the quick brown fox jumps --length=one-line");
    assertThat(model.await("Length: one-line", STEP).body()).contains("the quick brown fox jumps");
    awaitReplies(3);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "/translate --text=… --language=German renders (the model request has \"into"
            + " German\", the whole text and the default tone); positional arguments fill the missing required ones in"
            + " order, or are joined when one is missing");
  }

  @Test
  void missingOrInvalidArgumentsShowPromptdsError() throws Exception {
    cell = "stdio-missing";
    startModel();
    Path sent = dir.resolve("client-to-server.jsonl");
    start(Map.of(
        "promptd", tapped(PromptdServer.stdioCommand(library(), "--page-size", "500"), sent)));
    refresh(7);

    // No form: Gemini CLI declares no elicitation, so promptd keeps the arguments required and
    // answers -32602.
    String initialize = Files.readAllLines(sent, UTF_8).stream()
        .filter(l -> l.contains("\"initialize\""))
        .findFirst()
        .orElseThrow();
    assertThat(initialize)
        .contains("\"capabilities\":{\"roots\":{\"listChanged\":true}}")
        .doesNotContain("elicitation");

    submit(tmux, "/translate help");
    String help = tmux.awaitText("Arguments for \"translate\"", STEP);
    assertThat(help)
        .containsSubsequence(
            "--text",
            "(required: yes)",
            "--language",
            "(required: yes)",
            "--tone",
            "(required: no)");

    // One required argument missing: the client sends it as "" (all positional words, none) and
    // shows promptd's error.
    submit(tmux, "/translate --text=\"hi there\"");
    tmux.await(
        "promptd's -32602 for the missing language",
        STEP,
        s -> s.contains("MCP error -32602: prompt 'translate': missing required")
            && s.contains("argument 'language'"));

    // Two missing: the client refuses before asking the server.
    submit(tmux, "/translate");
    tmux.awaitText("Missing required argument(s): --text, --language", STEP);

    submit(tmux, "/translate --text=\"hi\" --language=\"Klingon\"");
    tmux.await(
        "promptd's -32602 for the invalid enum value",
        STEP,
        s -> s.contains("MCP error -32602")
            && s.contains("must be one of")
            && s.contains("not 'Klingon'"));
    assertThat(model.requests()).noneMatch(e -> e.body().contains("Translate the text below"));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "no elicitation declared (capabilities: roots only), so no form: required flags"
            + " shown by /translate help; a missing required argument and an invalid enum value show promptd's -32602"
            + " message; with two missing the client refuses itself");
  }

  /**
   * Gemini CLI uses only the first message of a prompt, and only text: promptd folds each prompt
   * into one (by its clientInfo.name), so a prompt of several messages with an image, and a skill's
   * prompt (which starts with its SKILL.md as an embedded resource), reach the model whole, in
   * order.
   */
  @Test
  void promptsOfSeveralPartsReachTheModelWholeInOneMessage() throws Exception {
    cell = "stdio-folded";
    startModel();
    Path library = library();
    PromptdServer.copy(PythonSdkClientTest.SKILLS, library);
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(PromptdServer.stdioCommand(library, "--page-size", "500"))));
    refresh(8);

    submit(tmux, "/brand-colors --styles=\".btn { color: #ff0000; }\"");
    String brandColors = model.await("color: #ff0000", STEP).body();
    GeminiFamily.save(CLIENT, cell + "-brand-colors.request", brandColors);
    assertThat(brandColors).containsSubsequence(GeminiFamily.BRAND_COLORS_FOLDED);
    awaitReplies(1);

    submit(tmux, "/ops-incident-review --task=\"INC-42 database failover\"");
    String skill = model.await("INC-42 database failover", STEP).body();
    GeminiFamily.save(CLIENT, cell + "-skill.request", skill);
    assertThat(skill).containsSubsequence(GeminiFamily.SKILL_FOLDED);
    awaitReplies(2);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "/brand-colors (text, image, a second message, the styles) and a skill's command (its SKILL.md"
            + " as an embedded resource, its other files, the task) reach the model whole and in order, folded"
            + " by promptd into one text message: the client uses only the first message, and only text");
  }

  /**
   * A prompt named in Japanese ({@code 翻訳.prompt.md}, argument {@code 文章}) is offered as
   * {@code /翻訳} and renders with Japanese text, named or positional.
   */
  @Test
  void aPromptNamedInJapaneseIsACommand() throws Exception {
    cell = "stdio-japanese-name";
    startModel();
    Path library = library();
    Files.writeString(library.resolve("翻訳.prompt.md"), """
        ---
        description: 文章を英語に翻訳する
        arguments:
          - name: 文章
            description: 翻訳する文章
            required: true
        ---
        次の文章を英語に翻訳してください：{{文章}}
        """, UTF_8);
    // Through the launcher, as a user's configuration starts it. The client runs with no locale
    // here
    // (and passes a stdio server LANG but not LC_ALL or LC_CTYPE): the launcher makes the JVM read
    // file names as UTF-8 whatever the locale.
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "serve",
            "--page-size",
            "500",
            library.toString()))));
    refresh(8);
    // Offered: the menu shows the name and its description, "[MCP]" wrapped onto the next line
    // (the wide characters push it past the column the Latin names leave for it).
    tmux.type("/翻訳");
    tmux.await("/翻訳 offered", STEP, s -> s.matches("(?s).*\\n\\s*翻訳\\s+文章を英語に翻訳する\\s+\\[MCP].*"));

    submit(tmux, "/翻訳 --文章=\"今日は晴れです\"");
    assertThat(model.await("翻訳してください：今日は晴れです", STEP).body()).contains("次の文章を英語に翻訳してください：今日は晴れです");
    awaitReplies(1);
    submit(tmux, "/翻訳 明日は雨でしょう");
    assertThat(model.await("翻訳してください：明日は雨でしょう", STEP).body()).contains("次の文章を英語に翻訳してください：明日は雨でしょう");
    awaitReplies(2);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompt named 翻訳 with an argument 文章 is offered as /翻訳 (after /mcp refresh; the menu"
            + " wraps its [MCP] tag onto the next line) and renders with Japanese text, named"
            + " (--文章=\"…\") and positional; promptd started through the launcher with no locale set");
  }

  @Test
  void aPromptAddedWhileRunningIsListedButNotOfferedUntilRefresh() throws Exception {
    cell = "stdio-list-changed";
    Path library = library();
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(PromptdServer.stdioCommand(library, "--page-size", "500"))));
    refresh(7);
    assertThat(offered(tmux, "added-later", Duration.ofSeconds(3))).isFalse();

    Files.writeString(
        library.resolve("added-later.prompt.md"),
        "---\ndescription: Added while the client runs\n---\nSay hello.\n",
        UTF_8);
    // list_changed: the client lists the prompts again (its registry, which /mcp list shows, has
    // the new one) …
    assertThat(awaitListed(8)).contains("- added-later");
    // … but does not rebuild its slash commands: not offered until /mcp refresh.
    assertThat(offered(tmux, "added-later", Duration.ofSeconds(5)))
        .as("offered without a refresh")
        .isFalse();
    refresh(8);
    assertThat(offered(tmux, "added-later", Duration.ofSeconds(10)))
        .as("offered after /mcp refresh")
        .isTrue();
    tmux.type("/added-later");
    tmux.await("/added-later suggested", STEP, s -> GeminiFamily.suggests(s, "added-later"));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompt file added while it runs: list_changed makes it list the prompts again"
            + " (/mcp list shows the new one) but not offer it as a command; /mcp refresh does");
  }

  /**
   * Gemini CLI asks prompts/list once and ignores nextCursor; promptd gives it (by its
   * clientInfo.name) the whole list in one page, so a server paging by 2 still has all 7 listed.
   */
  @Test
  void theWholeListArrivesInTheOnePageItReads() throws Exception {
    cell = "stdio-paged";
    start(Map.of("promptd", GeminiFamily.stdioServer(PromptdServer.stdioCommand(library()))));
    String screen = awaitListed(EXAMPLE_PROMPTS.size());
    assertThat(screen).contains("- brand-colors", "- explain", "- translate");
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "promptd paging by " + PromptdServer.PAGE_SIZE + ": all 7 listed (the client"
            + " reads one page and ignores nextCursor; promptd sends it the whole list in one)");
  }

  @Test
  void httpWithABearerToken() throws Exception {
    cell = "http";
    startModel();
    int port = Peers.freePort();
    String token = "lane-gemini-token";
    http = Peers.startHttp(
        PromptdServer.httpCommand(library(), port, "--page-size", "500", "--token", token), port);
    // The configuration promptd clients prints, the token taken from PROMPTD_TOKEN by the client's
    // $VAR substitution.
    Map<String, Object> server = new LinkedHashMap<>();
    server.put("httpUrl", Peers.mcpUrl(port).toString());
    server.put("headers", Map.of("Authorization", "Bearer $PROMPTD_TOKEN"));
    String printed = PromptdServer.clients(
        Path.of("promptd"), "--http", Peers.mcpUrl(port).toString(), "--client", "gemini-cli");
    assertThat(JsonCodec.parse(printed))
        .isEqualTo(
            JsonCodec.parse(TerminalClients.json(Map.of("mcpServers", Map.of("promptd", server)))));
    server.put(
        "timeout", 60_000); // this test's promptd starts without the launcher's start-up cache
    environment.put("PROMPTD_TOKEN", token);
    start(Map.of("promptd", server));
    refresh(7);
    assertThat(notOffered(tmux, EXAMPLE_PROMPTS))
        .as("example prompts not offered as /NAME [MCP]")
        .isEmpty();
    submit(tmux, "/translate --text=\"good morning my friend\" --language=\"German\"");
    assertThat(model.await("into German", STEP).body()).contains("good morning my friend");
    awaitReplies(1);
    Matrix.record(
        CELL,
        "http",
        ERA,
        "httpUrl with an Authorization: Bearer header: the 7 example prompts offered as"
            + " commands (after /mcp refresh), /translate renders into the model request");
  }

  // --- helpers

  private Path library() throws Exception {
    return PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
  }

  private void startModel() throws Exception {
    model = ModelStandIn.start(GeminiCliCellsTest::geminiReply);
  }

  /**
   * Gemini API answers: a one-chunk SSE stream for streamGenerateContent, the same object as JSON
   * otherwise.
   */
  static ModelStandIn.Reply geminiReply(ModelStandIn.Exchange request) {
    String chunk = "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"" + REPLY
        + "\"}],\"role\":\"model\"},"
        + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":1,"
        + "\"candidatesTokenCount\":1,\"totalTokenCount\":2}}";
    if (request.path().contains("alt=sse")) {
      return new ModelStandIn.Reply(200, "text/event-stream", "data: " + chunk + "\r\n\r\n");
    }
    return new ModelStandIn.Reply(200, "application/json", chunk);
  }

  private void start(Map<String, Object> mcpServers) throws Exception {
    tmux = launch(dir, cell, mcpServers, environment, model);
    tmux.awaitText("Type your message", START);
  }

  /**
   * Starts Gemini CLI in {@code dir} with a fresh home whose settings pre-answer the first-run
   * dialogs: the auth method (Gemini API key, a dummy one), folder trust (off: the workspace is a
   * temp dir), the theme, IDE integration, usage statistics; a fixed model (the default "auto"
   * first asks a classifier model). The caller waits for what it needs to see first.
   */
  static Tmux launch(
      Path dir,
      String cell,
      Map<String, Object> mcpServers,
      Map<String, String> environment,
      @Nullable ModelStandIn model)
      throws Exception {
    Path home = dir.resolve("home");
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put(
        "security",
        Map.of(
            "auth",
            Map.of("selectedType", "gemini-api-key"),
            "folderTrust",
            Map.of("enabled", false)));
    settings.put("ui", Map.of("theme", "Default"));
    settings.put("privacy", Map.of("usageStatisticsEnabled", false));
    settings.put("ide", Map.of("enabled", false, "hasSeenNudge", true));
    settings.put("general", Map.of("disableAutoUpdate", true, "disableUpdateNag", true));
    settings.put("model", Map.of("name", "gemini-2.5-flash"));
    settings.put("mcpServers", mcpServers);
    GeminiFamily.writeSettings(home, ".gemini", settings);
    Map<String, String> env = new LinkedHashMap<>(environment);
    env.put("HOME", home.toString());
    env.put("GEMINI_API_KEY", "dummy-key-for-the-stand-in");
    env.put("GOOGLE_GEMINI_BASE_URL", model != null ? model.url() : "http://127.0.0.1:9");
    return GeminiFamily.start(CLIENT, cell, GEMINI, dir.resolve("work"), env);
  }

  /**
   * Runs {@code /mcp list} until it shows promptd ready with {@code prompts} prompts (its output
   * does not change once shown, so it is asked again); returns the screen.
   */
  private String awaitListed(int prompts) throws Exception {
    String[] screen = {""};
    Poll.until(
        START,
        Duration.ofSeconds(1),
        () -> "/mcp list shows promptd with " + prompts + " prompts; the screen" + " was:\n"
            + screen[0],
        () -> {
          submit(tmux, "/mcp list");
          try {
            screen[0] = tmux.await(
                "/mcp list answered",
                Duration.ofSeconds(10),
                s -> s.lastIndexOf("Configured MCP servers") > s.lastIndexOf("> /mcp list"));
          } catch (AssertionError notYet) {
            return false;
          }
          String last = screen[0].substring(screen[0].lastIndexOf("Configured MCP servers"));
          return last.contains("promptd - Ready (" + prompts + " prompts");
        });
    return screen[0];
  }

  /**
   * {@code /mcp refresh}: reconnects, lists again and rebuilds the slash commands; waits for the
   * new listing. Only once the first listing is done: a refresh during it registers every prompt
   * twice (the second as promptd_NAME).
   */
  private void refresh(int prompts) throws Exception {
    awaitListed(prompts);
    submit(tmux, "/mcp refresh");
    tmux.await("/mcp refresh listing promptd with " + prompts + " prompts", START, s -> {
      int i = s.lastIndexOf("Reloading MCP servers");
      return i >= 0 && s.substring(i).contains("promptd - Ready (" + prompts + " prompts");
    });
  }

  private void awaitReplies(int n) throws Exception {
    tmux.await(n + " model replies shown", STEP, s -> s.split(REPLY, -1).length - 1 >= n);
  }

  /**
   * Serves {@code command} over stdio through {@code tee}, which keeps what the client sent in
   * {@code sent}.
   */
  private static Map<String, Object> tapped(List<String> command, Path sent) {
    return GeminiFamily.stdioServer(
        List.of("/bin/sh", "-c", "tee -a '" + sent + "' | exec " + PromptdServer.shell(command)));
  }
}
