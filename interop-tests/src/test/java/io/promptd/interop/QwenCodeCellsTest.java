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
 * Qwen Code 0.24.4 (a fork of Gemini CLI), the real terminal client in tmux, against real
 * {@code promptd serve} processes (stdio, and Streamable HTTP with a bearer token). Its model API
 * is an OpenAI-compatible {@link ModelStandIn} ({@code OPENAI_BASE_URL}), so what a rendered prompt
 * put into the conversation is read from the chat-completions request the client sent.
 *
 * <p>Unlike Gemini CLI, Qwen Code rebuilds its slash commands 250 ms after an MCP server connects,
 * so promptd's prompts are offered at start-up. Like it, it asks {@code prompts/list} once (first
 * page only); it ignores {@code notifications/prompts/list_changed} altogether; its bundled
 * {@code /review} skill replaces promptd's {@code review} prompt (skills are loaded after MCP
 * prompts, and the later command of a name wins); and it checks the required arguments itself, so
 * only invalid values reach promptd.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class QwenCodeCellsTest {
  static final String CELL = "Qwen Code 0.24.4 (terminal, tmux) → promptd";
  static final String CLIENT = "qwen-code";
  static final String ERA = "legacy 2025-11-25";
  static final String REPLY = "STAND-IN REPLY";
  static final Path QWEN = GeminiFamily.CLIENTS.resolve("qwen");

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
    assumeThat(Files.isExecutable(QWEN))
        .as("Qwen Code installed (npm ci --prefix interop/clients)")
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
    Path sent = dir.resolve("client-to-server.jsonl");
    start(Map.of(
        "promptd",
        tapped(PromptdServer.stdioCommand(library(), "--page-size", "500"), sent, null)));
    awaitOffered("translate");
    assertThat(notOffered(tmux, EXAMPLE_PROMPTS))
        .as("example prompts not offered as /NAME [MCP]")
        .containsExactly("review");
    assertReviewIsTheBundledSkill();
    String initialize = Files.readAllLines(sent, UTF_8).stream()
        .filter(l -> l.contains("\"initialize\""))
        .findFirst()
        .orElseThrow();
    assertThat(initialize)
        .contains("\"protocolVersion\":\"2025-11-25\"")
        .doesNotContain("elicitation");
    tmux.type("/translate");
    tmux.await("/translate suggested", STEP, s -> GeminiFamily.suggests(s, "translate"));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "6 of the 7 example prompts offered at start-up as /NAME [MCP] commands, named"
            + " as promptd names them; /review is Qwen Code's bundled skill, which replaces promptd's review prompt");
  }

  @Test
  void commandArgumentsRenderIntoTheConversation() throws Exception {
    cell = "stdio-render";
    startModel();
    start(Map.of(
        "promptd",
        GeminiFamily.stdioServer(PromptdServer.stdioCommand(library(), "--page-size", "500"))));
    awaitOffered("translate");

    submit(tmux, "/translate --text=\"good morning my friend\" --language=\"German\"");
    assertThat(model.await("into German", STEP).body())
        .contains("good morning my friend")
        .contains("in a neutral register");
    awaitReplies(1);

    // Positional arguments fill the required arguments still missing, in order; quotes group words.
    submit(tmux, "/translate \"good evening everyone\" French");
    assertThat(model.await("into French", STEP).body()).contains("good evening everyone");
    awaitReplies(2);

    // Positional arguments go on to the optional arguments (one word each) …
    submit(tmux, "/summarize \"the quick brown fox jumps\" one-line");
    assertThat(model.await("Length: one-line", STEP).body()).contains("the quick brown fox jumps");
    awaitReplies(3);
    // … and are joined only when exactly one argument, required or not, is left unfilled.
    submit(tmux, "/summarize the lazy dog sleeps --length=detailed --bullets=false");
    assertThat(model.await("Length: detailed", STEP).body()).contains("the lazy dog sleeps");
    awaitReplies(4);
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "/translate --text=… --language=German renders (the model request has \"into"
            + " German\", the whole text and the default tone); positional arguments fill the unfilled arguments in"
            + " order, required first then optional, one word (or quoted phrase) each, joined only when one is left");
  }

  @Test
  void missingOrInvalidArgumentsShowPromptdsError() throws Exception {
    cell = "stdio-missing";
    startModel();
    Path sent = dir.resolve("client-to-server.jsonl");
    start(Map.of(
        "promptd",
        tapped(PromptdServer.stdioCommand(library(), "--page-size", "500"), sent, null)));
    awaitOffered("translate");

    // No form: Qwen Code declares no elicitation, so promptd keeps the arguments required and
    // answers -32602.
    String initialize = Files.readAllLines(sent, UTF_8).stream()
        .filter(l -> l.contains("\"initialize\""))
        .findFirst()
        .orElseThrow();
    assertThat(initialize).contains("\"roots\":{}").doesNotContain("elicitation");

    submit(tmux, "/translate help");
    // The heading is drawn a frame before the arguments: wait for the last argument's line.
    tmux.awaitText("Arguments for \"translate\"", STEP);
    String help = tmux.awaitText("(required: no)", STEP);
    assertThat(help)
        .containsSubsequence(
            "--text",
            "(required: yes)",
            "--language",
            "(required: yes)",
            "--tone",
            "(required: no)");

    // A missing required argument: the client refuses before asking the server (it checks the
    // required flags).
    submit(tmux, "/translate --text=\"hi there\"");
    tmux.awaitText("Missing required argument(s): --language", STEP);
    submit(tmux, "/translate");
    tmux.awaitText("Missing required argument(s): --text, --language", STEP);

    // An invalid enum value: promptd's -32602 message, shown without the code.
    submit(tmux, "/translate --text=\"hi\" --language=\"Klingon\"");
    tmux.await(
        "promptd's message for the invalid enum value",
        STEP,
        s -> s.contains("Error: prompt 'translate':")
            && s.contains("must be one of")
            && s.contains("not 'Klingon'"));
    assertThat(Files.readString(sent, UTF_8))
        .contains("\"language\":\"Klingon\"")
        .doesNotContain("\"text\":\"hi there\"");
    assertThat(model.requests()).noneMatch(e -> e.body().contains("Translate the text below"));
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "no elicitation declared (capabilities: roots and the MCP Apps extension), so no"
            + " form: required flags shown by /translate help; a missing required argument is refused by the client"
            + " itself; an invalid enum value shows promptd's -32602 message");
  }

  /**
   * Qwen Code uses only the first message of a prompt, and only text: promptd folds each prompt
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
    awaitOffered("ops-incident-review");

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

  @Test
  void aPromptAddedWhileRunningIsNotOffered() throws Exception {
    cell = "stdio-list-changed";
    Path library = library();
    Path sent = dir.resolve("client-to-server.jsonl");
    Path received = dir.resolve("server-to-client.jsonl");
    start(Map.of(
        "promptd",
        tapped(PromptdServer.stdioCommand(library, "--page-size", "500"), sent, received)));
    awaitOffered("translate");

    Files.writeString(
        library.resolve("added-later.prompt.md"),
        "---\ndescription: Added while the client runs\n---\nSay hello.\n",
        UTF_8);
    Poll.until(
        Duration.ofSeconds(30),
        Duration.ofMillis(200),
        () -> "promptd sent list_changed",
        () -> Files.readString(received, UTF_8).contains("notifications/prompts/list_changed"));
    // The client does not list the prompts again, so the new one is never offered (until the client
    // restarts).
    assertThat(offered(tmux, "added-later", Duration.ofSeconds(10)))
        .as("offered after list_changed")
        .isFalse();
    assertThat(Files.readAllLines(sent, UTF_8))
        .filteredOn(l -> l.contains("\"prompts/list\""))
        .hasSize(1);
    tmux.type("/added-later");
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "a prompt file added while it runs: promptd sends list_changed, the client does"
            + " not list the prompts again; the new prompt is not offered until it restarts");
  }

  /**
   * Qwen Code asks prompts/list once and ignores nextCursor; promptd gives it (by its
   * clientInfo.name) the whole list in one page, so a server paging by 2 still has all 7 offered.
   */
  @Test
  void theWholeListArrivesInTheOnePageItReads() throws Exception {
    cell = "stdio-paged";
    Path sent = dir.resolve("client-to-server.jsonl");
    start(Map.of("promptd", tapped(PromptdServer.stdioCommand(library()), sent, null)));
    awaitOffered("explain");
    assertThat(offered(tmux, "brand-colors", Duration.ofSeconds(10))).isTrue();
    assertThat(offered(tmux, "translate", Duration.ofSeconds(10)))
        .as("a prompt past the first 2")
        .isTrue();
    assertThat(Files.readAllLines(sent, UTF_8))
        .filteredOn(l -> l.contains("\"prompts/list\""))
        .hasSize(1)
        .noneMatch(l -> l.contains("cursor"));
    tmux.type("/translate");
    Matrix.record(
        CELL,
        "stdio",
        ERA,
        "promptd paging by " + PromptdServer.PAGE_SIZE + ": all 7 offered (the client"
            + " reads one page and ignores nextCursor; promptd sends it the whole list in one)");
  }

  @Test
  void httpWithABearerToken() throws Exception {
    cell = "http";
    startModel();
    int port = Peers.freePort();
    String token = "lane-qwen-token";
    http = Peers.startHttp(
        PromptdServer.httpCommand(library(), port, "--page-size", "500", "--token", token), port);
    // The configuration promptd clients prints, the token taken from PROMPTD_TOKEN by the client's
    // $VAR substitution.
    Map<String, Object> server = new LinkedHashMap<>();
    server.put("httpUrl", Peers.mcpUrl(port).toString());
    server.put("headers", Map.of("Authorization", "Bearer $PROMPTD_TOKEN"));
    String printed = PromptdServer.clients(
        Path.of("promptd"), "--http", Peers.mcpUrl(port).toString(), "--client", "qwen-code");
    assertThat(JsonCodec.parse(printed))
        .isEqualTo(
            JsonCodec.parse(TerminalClients.json(Map.of("mcpServers", Map.of("promptd", server)))));
    server.put(
        "timeout", 60_000); // this test's promptd starts without the launcher's start-up cache
    environment.put("PROMPTD_TOKEN", token);
    start(Map.of("promptd", server));
    awaitOffered("translate");
    assertThat(notOffered(tmux, EXAMPLE_PROMPTS))
        .as("example prompts not offered as /NAME [MCP]")
        .containsExactly("review");
    submit(tmux, "/translate --text=\"good morning my friend\" --language=\"German\"");
    assertThat(model.await("into German", STEP).body()).contains("good morning my friend");
    awaitReplies(1);
    Matrix.record(
        CELL,
        "http",
        ERA,
        "httpUrl with an Authorization: Bearer header: the example prompts offered as"
            + " commands at start-up (review shadowed by the bundled skill), /translate renders into the model request");
  }

  // --- helpers

  /**
   * promptd's {@code review} prompt is shadowed by Qwen Code's bundled {@code /review} skill
   * (loaded after it).
   */
  private void assertReviewIsTheBundledSkill() throws Exception {
    GeminiFamily.clear(tmux);
    tmux.type("/review");
    tmux.await(
        "/review suggested as the bundled skill",
        STEP,
        s -> s.lines()
            .anyMatch(l ->
                l.strip().startsWith("> review [pr-number|file-path]") && l.contains("[Skil")));
    assertThat(GeminiFamily.suggests(tmux.screen(), "review")).isFalse();
    GeminiFamily.save(CLIENT, "stdio-review-shadowed", tmux.screen());
    GeminiFamily.clear(tmux);
  }

  private Path library() throws Exception {
    return PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
  }

  private void startModel() throws Exception {
    model = ModelStandIn.start(QwenCodeCellsTest::openAiReply);
  }

  /**
   * OpenAI chat-completions answers: SSE chunks then {@code [DONE]} when streaming, one completion
   * otherwise.
   */
  static ModelStandIn.Reply openAiReply(ModelStandIn.Exchange request) {
    if (request.method().equals("GET")) {
      return new ModelStandIn.Reply(
          200,
          "application/json",
          "{\"object\":\"list\",\"data\":[{\"id\":\"stand-in-model\",\"object\":\"model\"}]}");
    }
    if (request.body().replace(" ", "").contains("\"stream\":true")) {
      String delta =
          "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"stand-in-model\","
              + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"" + REPLY
              + "\"},"
              + "\"finish_reason\":null}]}";
      String stop =
          "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"stand-in-model\","
              + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,"
              + "\"completion_tokens\":1,\"total_tokens\":2}}";
      return new ModelStandIn.Reply(
          200,
          "text/event-stream",
          "data: " + delta + "\n\n" + "data: " + stop + "\n\n" + "data: [DONE]\n\n");
    }
    return new ModelStandIn.Reply(
        200,
        "application/json",
        "{\"id\":\"c1\",\"object\":\"chat.completion\","
            + "\"created\":1,\"model\":\"stand-in-model\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"" + REPLY
            + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,"
            + "\"completion_tokens\":1,\"total_tokens\":2}}");
  }

  /**
   * Starts Qwen Code with a fresh home whose settings pre-answer the first-run dialogs: the auth
   * method (OpenAI-compatible, a dummy key and the stand-in's URL and model from the environment)
   * and folder trust (off: the workspace is a temp dir).
   */
  private void start(Map<String, Object> mcpServers) throws Exception {
    Path home = dir.resolve("home");
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put(
        "security",
        Map.of("auth", Map.of("selectedType", "openai"), "folderTrust", Map.of("enabled", false)));
    settings.put("privacy", Map.of("usageStatisticsEnabled", false));
    settings.put("general", Map.of("disableAutoUpdate", true, "disableUpdateNag", true));
    settings.put("mcpServers", mcpServers);
    GeminiFamily.writeSettings(home, ".qwen", settings);
    Map<String, String> env = new LinkedHashMap<>(environment);
    env.put("HOME", home.toString());
    env.put("OPENAI_API_KEY", "dummy-key-for-the-stand-in");
    env.put("OPENAI_BASE_URL", (model != null ? model.url() : "http://127.0.0.1:9") + "/v1");
    env.put("OPENAI_MODEL", "stand-in-model");
    tmux = GeminiFamily.start(CLIENT, cell, QWEN, dir.resolve("work"), env);
    tmux.awaitText("Type your message", START);
  }

  /**
   * Waits until the client offers {@code name} as a command (its MCP server connected and listed).
   */
  private void awaitOffered(String name) throws Exception {
    Poll.until(
        START,
        Duration.ofMillis(500),
        () -> "/" + name + " offered as an MCP command",
        () -> offered(tmux, name, Duration.ofSeconds(3)));
  }

  private void awaitReplies(int n) throws Exception {
    tmux.await(n + " model replies shown", STEP, s -> s.split(REPLY, -1).length - 1 >= n);
  }

  /**
   * Serves {@code command} over stdio through {@code tee}: what the client sent is kept in
   * {@code sent}, and what the server answered in {@code received} (when given).
   */
  private static Map<String, Object> tapped(
      List<String> command, Path sent, @Nullable Path received) {
    String server =
        PromptdServer.shell(command) + (received == null ? "" : " | tee -a '" + received + "'");
    return GeminiFamily.stdioServer(List.of("/bin/sh", "-c", "tee -a '" + sent + "' | " + server));
  }
}
