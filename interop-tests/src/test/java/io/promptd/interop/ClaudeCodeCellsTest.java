package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-client lane, Claude Code cells: Claude Code 2.1.332's terminal UI in tmux against real
 * {@code promptd serve} processes (stdio, spawned by Claude Code; Streamable HTTP with a bearer
 * token), its model API a stand-in that records what reached the model. Each cell saves its last
 * screen as {@code target/client-screens/claude-code-CELL.txt} (every screen seen:
 * {@code .all.txt}). How the terminal UI is driven (menu, form keys): {@link ClaudeCode}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClaudeCodeCellsTest {
  private static final String CELL =
      "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → promptd";
  private static final Set<String> EXAMPLES = Set.of(
      "brand-colors",
      "explain",
      "git-commit-message",
      "review",
      "summarize",
      "translate",
      "write-tests");
  private static final Duration START = Duration.ofSeconds(90);
  private static final Duration TURN = Duration.ofSeconds(60);
  /**
   * The rendered translate prompt's last lines, as they are in the JSON request body (\n escaped).
   */
  private static final String RENDERED_TAIL = "Reply with the translation only.\\n\\n";

  @TempDir
  Path dir;

  private Path library;
  private ModelStandIn model;
  private Path wire = Path.of("none");
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeAll
  static void installed() {
    ClaudeCode.require();
  }

  @BeforeEach
  void setUp() throws Exception {
    library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("library"));
    model = ModelStandIn.start(ClaudeCode::anthropic);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    if (model != null) {
      model.close();
    }
    // Claude Code ends its stdio server when it ends; should one outlive it, end it here (its
    // command names the library, a folder of this test's own).
    if (library != null) {
      TerminalClients.endProcessesIn(library.toString());
    }
  }

  /**
   * Cell 1: the prompts are offered as slash commands: the menu for /mcp__promptd__ lists all 7
   * examples.
   */
  @Test
  void stdioPromptsAreOfferedAsCommands() throws Exception {
    ClaudeCode claude = stdio("stdio-menu");
    claude.awaitCommand("translate", START);
    Set<String> commands = claude.menuCommands("/mcp__promptd__");
    assertThat(commands).containsExactlyInAnyOrderElementsOf(EXAMPLES);
    assertThat(wire())
        .as("Claude Code's first message over stdio")
        .contains("\"method\":\"server/discover\"");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "all 7 prompts offered as slash commands (/mcp__promptd__NAME, menu /promptd:NAME (MCP) with arguments)");
  }

  /**
   * Cell 2: a command with its arguments renders, and the rendered text is what reaches the model.
   */
  @Test
  void stdioCommandWithArgumentsRenders() throws Exception {
    ClaudeCode claude = stdio("stdio-render");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate hello French");
    // Claude Code cuts typed text at spaces, so promptd shows the free text it passed for checking
    // (--confirm-free-text auto): the text filled in, the valid language not asked again.
    String form = claude.awaitForm(TURN);
    assertThat(form)
        .contains("will use these values: check them, then accept")
        .contains("text: hello")
        .doesNotContain("language:");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    String body = model.await("Translate the text below into French", TURN).body();
    assertThat(body).contains(RENDERED_TAIL + "hello");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "/mcp__promptd__translate hello French: the free text shown"
            + " in promptd's form for checking, accepted; promptd's rendered text is the user message sent to the model");
  }

  /**
   * Cell 8: free text cut at a space. {@code /mcp__promptd__translate good German} reaches promptd
   * as text=good; promptd shows it in its form (filled in), the user completes the sentence, and
   * the whole sentence renders.
   */
  @Test
  void stdioFreeTextCutAtASpaceIsShownForCompletion() throws Exception {
    ClaudeCode claude = stdio("stdio-confirm-free-text");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate good German");
    String form = claude.awaitForm(TURN);
    assertThat(form).contains("text: good");
    claude.focus("text");
    claude
        .tmux()
        .keys(
            "BSpace", "BSpace", "BSpace", "BSpace"); // a text field's Backspace deletes a character
    claude.await("the text field emptied", Duration.ofSeconds(10), s -> !s.contains("text: go"));
    claude.fill("text", "good morning my friend");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    String body = model.await("Translate the text below into German", TURN).body();
    assertThat(body).contains(RENDERED_TAIL + "good morning my friend");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "/mcp__promptd__translate good German (Claude Code passes"
            + " text=good): promptd's form shows \"good\" for checking, completed to a sentence, which reaches the model whole");
  }

  /**
   * Cell 3: a required argument left out. Claude Code 2.1.332 checks the arguments itself before
   * asking the server ("Error: Missing required argument: language. Usage: /mcp__promptd__translate
   * text language tone"); with promptd's form-first arguments (every argument listed as not
   * required to a client that declared form elicitation) the command reaches promptd, which asks
   * for the missing language in its form, the text given already valid.
   */
  @Test
  void stdioMissingArgumentIsAskedFor() throws Exception {
    ClaudeCode claude = stdio("stdio-missing-argument");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate hello");
    String form = claude.awaitForm(TURN);
    assertThat(form).doesNotContain("Missing required argument").contains("language");
    claude.choose("language", "German");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Translate the text below into German", TURN).body())
        .contains(RENDERED_TAIL + "hello");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "/mcp__promptd__translate hello (language missing): promptd's form asks for it, German chosen, rendered");
  }

  /**
   * Cell 4: a value outside the enum: promptd asks for it in a form inside Claude Code; French
   * chosen, rendered.
   */
  @Test
  void stdioInvalidArgumentIsAskedForInAForm() throws Exception {
    ClaudeCode claude = stdio("stdio-invalid-argument");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate hello Klingon");
    String form = claude.awaitForm(TURN);
    assertThat(form)
        .contains("The prompt 'translate' needs more from you")
        .contains("not 'Klingon'")
        .contains("language:");
    claude.choose("language", "French");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Translate the text below into French", TURN).body())
        .contains(RENDERED_TAIL + "hello");
    assertThat(model.requests()).noneMatch(r -> r.body().contains("into Klingon"));
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "/mcp__promptd__translate hello Klingon: promptd's form"
            + " (language must be one of …) shown by Claude Code, French chosen with → ↓ Space, accepted, rendered");
  }

  /**
   * Cell 5: a prompt file written while Claude Code runs becomes a command without a restart
   * (list_changed).
   */
  @Test
  void stdioNewPromptFileBecomesACommand() throws Exception {
    ClaudeCode claude = stdio("stdio-list-changed");
    claude.awaitCommand("translate", START);
    assertThat(claude.menuCommands("/mcp__promptd__"))
        .containsExactlyInAnyOrderElementsOf(EXAMPLES);
    Files.writeString(library.resolve("haiku-from-lane.prompt.md"), """
        ---
        description: Write a haiku about a topic (added while Claude Code runs).
        arguments:
          - name: topic
            required: true
        ---
        Write a haiku about {{topic}}.
        """, UTF_8);
    claude.awaitCommand("haiku-from-lane", Duration.ofSeconds(60));
    claude.send("/mcp__promptd__haiku-from-lane autumn");
    claude.awaitReplyAcceptingForms(TURN);
    model.await("Write a haiku about autumn.", TURN);
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "a prompt file written while it runs: a new command in the menu without a restart, and it renders");
  }

  /**
   * Cell 6: Streamable HTTP with a bearer token in the server's headers: the commands are offered
   * and render.
   */
  @Test
  void httpWithABearerToken() throws Exception {
    String token = "lane-token-" + System.nanoTime();
    Path accessLog = dir.resolve("access.jsonl");
    int port = http(token, accessLog);
    ClaudeCode claude = start(
        "http-token",
        ClaudeCode.httpServer(
            Peers.mcpUrl(port).toString(), Map.of("Authorization", "Bearer " + token)));
    claude.awaitCommand("translate", START);
    assertThat(claude.menuCommands("/mcp__promptd__"))
        .containsExactlyInAnyOrderElementsOf(EXAMPLES);
    claude.send("/mcp__promptd__translate hello Spanish");
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Translate the text below into Spanish", TURN).body())
        .contains(RENDERED_TAIL + "hello");
    String log = Files.readString(accessLog);
    assertThat(log)
        .contains("\"method\":\"server/discover\"")
        .contains(
            "\"era\":\"modern\",\"http\":\"POST\",\"method\":\"prompts/get\",\"prompt\":\"translate\","
                + "\"outcome\":\"ok\",\"status\":200")
        .doesNotContain("\"status\":401");
    Matrix.record(
        CELL,
        "Streamable HTTP, bearer token",
        "modern 2026-07-28",
        "\"headers\": {\"Authorization\": \"Bearer …\"} in the MCP config: 7 commands offered, translate renders");
  }

  /**
   * Cell 6, refused: without the token promptd answers 401 ({@code WWW-Authenticate: Bearer});
   * Claude Code offers no promptd command and, in /mcp, shows the server as failed: it takes the
   * 401 for an OAuth server, looks for its metadata and tries Dynamic Client Registration, which
   * promptd (a static token) answers with 404.
   */
  @Test
  void httpWithoutTheTokenIsRefused() throws Exception {
    String token = "lane-token-" + System.nanoTime();
    Path accessLog = dir.resolve("access.jsonl");
    int port = http(token, accessLog);
    HttpResponse<String> bare = HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(Peers.mcpUrl(port))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(bare.statusCode()).isEqualTo(401);

    ClaudeCode claude =
        start("http-no-token", ClaudeCode.httpServer(Peers.mcpUrl(port).toString(), Map.of()));
    claude.send("/mcp");
    claude.await("/mcp lists promptd as failed", START, s -> s.contains("✘ promptd"));
    claude.tmux().keys("Escape");
    claude.await("the /mcp dialog closed", Duration.ofSeconds(10), s -> !s.contains("✘ promptd"));
    claude.tmux().type("/promptd:");
    claude.await("/promptd: typed", Duration.ofSeconds(10), s -> s.contains("❯ /promptd:"));
    // The menu is drawn as the text is typed: once the screen settles it shows what is offered.
    assertThat(claude.tmux().awaitStable(Duration.ofSeconds(10)))
        .doesNotContain("/promptd:translate (MCP)");
    claude.send("/mcp");
    claude.await("/mcp lists promptd as failed", START, s -> s.contains("✘ promptd"));
    claude.tmux().keys("Enter");
    String details = claude.await(
        "the details of promptd in /mcp",
        Duration.ofSeconds(20),
        s -> s.contains("Status:") && s.contains("failed"));
    assertThat(details).contains("not authenticated");
    String log = Files.readString(accessLog);
    assertThat(log).contains("\"status\":401").doesNotContain("\"outcome\":\"ok\",\"status\":200");
    Matrix.record(
        CELL,
        "Streamable HTTP, no token",
        "—",
        "promptd answers 401 (WWW-Authenticate: Bearer); Claude Code lists no command, /mcp shows promptd ✘ failed,"
            + " not authenticated (it tried OAuth discovery and dynamic client registration: 404)");
  }

  /**
   * Cell 7, form-first: the bare command reaches promptd (every argument listed as not required to
   * a client that declared form elicitation), which asks in one form for every argument without a
   * valid value: text and language (required), tone (its default filled in). A sentence with spaces
   * typed into text reaches the model whole.
   */
  @Test
  void stdioBareCommandAsksForEveryArgument() throws Exception {
    ClaudeCode claude = stdio("stdio-form-first");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate");
    String form = claude.awaitForm(TURN);
    assertThat(form).contains("text:").contains("language:").contains("tone:");
    claude.fill("text", "the cat sat on the mat");
    claude.choose("language", "Italian");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    String body = model
        .await("Translate the text below into Italian, in a neutral register", TURN)
        .body();
    assertThat(body).contains(RENDERED_TAIL + "the cat sat on the mat");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "bare /mcp__promptd__translate: one form for text, language,"
            + " tone (default filled); a sentence with spaces typed into text reaches the model whole");
  }

  /**
   * Cell 9: configured as the docs say: the {@code claude mcp add} line {@code promptd clients
   * --client claude-code} prints for the library, run in Claude Code's home; then the commands are
   * offered and one renders.
   */
  @Test
  void theConfigurationPromptdClientsPrintsWorks() throws Exception {
    Path launcher = PromptdServer.launcher(dir.resolve("bin"));
    String add = PromptdServer.clients(launcher, "--client", "claude-code", library.toString());
    assertThat(add)
        .isEqualTo("claude mcp add --scope user promptd -- " + launcher + " serve " + library);
    ClaudeCode claude = ClaudeCode.startAfter("promptd-clients", dir.resolve("claude"), add, model);
    open.add(claude);
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate hello French");
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Translate the text below into French", TURN).body())
        .contains(RENDERED_TAIL + "hello");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "configured by the line promptd clients prints (claude mcp add"
            + " --scope user promptd -- …/promptd serve DIR): commands offered, translate renders");
  }

  /**
   * Cell 10: a skill beside the prompts is a slash command too.
   * {@code /mcp__promptd__ops-incident-review INC-42} puts the skill's {@code SKILL.md} and the
   * task into the conversation. Claude Code speaks 2026-07-28 to promptd, which declares the Skills
   * extension to it; whether Claude Code then calls {@code skills/list} is read off the wire and
   * recorded (2.1.332 does not: it never asks).
   */
  @Test
  void stdioASkillIsASlashCommand() throws Exception {
    PromptdServer.copy(PythonSdkClientTest.SKILLS, library);
    ClaudeCode claude = stdio("stdio-skill");
    claude.awaitCommand("ops-incident-review", START);
    claude.send("/mcp__promptd__ops-incident-review INC-42");
    claude.awaitReplyAcceptingForms(TURN);
    String body = model.await("Gather the timeline, the alerts", TURN).body();
    assertThat(body)
        .contains("Walk through `references/checklist.md` and answer every item.")
        .contains("INC-42");
    String wire = wire();
    assertThat(wire).contains("\"io.modelcontextprotocol/skills\"");
    assertThat(wire).doesNotContain("\"method\":\"skills/list\"");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "a skill beside the prompts: /mcp__promptd__ops-incident-review INC-42 puts its SKILL.md and the"
            + " task into the user message sent to the model; the Skills extension is declared, and Claude"
            + " Code never calls skills/list");
  }

  /**
   * Cell 11: a skill carries its files. {@code /mcp__promptd__ops-collect-logs} for a skill whose
   * {@code SKILL.md} says to run {@code scripts/collect.sh}: promptd embeds the script's text after
   * the {@code SKILL.md} (a text file within the skill-files budget), and both reach the model in
   * the user message, the script's lines whole. Claude Code 2.1.332 turns each embedded resource
   * into a text block {@code [Resource from promptd at URI] TEXT}; a resource link becomes
   * {@code [Resource link: NAME] URI}, which is all the model saw of the script before.
   */
  @Test
  void stdioASkillsScriptReachesTheModel() throws Exception {
    Path skill = Files.createDirectories(library.resolve("ops/collect-logs/scripts"));
    Files.writeString(skill.resolveSibling("SKILL.md"), """
        ---
        name: collect-logs
        description: Collects the service's logs of the last hour for an incident.
        ---
        Run `scripts/collect.sh` and sum up what its output shows.
        """, UTF_8);
    String marker = "journalctl --unit=lane-payments-api --since=-1h";
    Files.writeString(skill.resolve("collect.sh"), "#!/bin/sh\n" + marker + "\n", UTF_8);
    ClaudeCode claude = stdio("stdio-skill-files");
    claude.awaitCommand("ops-collect-logs", START);
    claude.send("/mcp__promptd__ops-collect-logs");
    claude.awaitReplyAcceptingForms(TURN);
    String body = model.await("Run `scripts/collect.sh` and sum up", TURN).body();
    assertThat(body)
        .contains("[Resource from promptd at skill://ops/collect-logs/scripts/collect.sh]"
            + " #!/bin/sh\\n" + marker + "\\n")
        .doesNotContain("[Resource link: scripts/collect.sh]");
    assertThat(body.indexOf("Run `scripts/collect.sh`"))
        .as("SKILL.md before the script")
        .isLessThan(body.indexOf(marker));
    assertThat(wire())
        .contains(
            "{\"type\":\"resource\",\"resource\":{\"uri\":"
                + "\"skill://ops/collect-logs/scripts/collect.sh\",\"mimeType\":\"text/x-shellscript\"");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "a skill's files: /mcp__promptd__ops-collect-logs embeds scripts/collect.sh after its SKILL.md;"
            + " the script's text reaches the model whole, after the SKILL.md, in the user message"
            + " ([Resource from promptd at skill://…/scripts/collect.sh] #!/bin/sh …)");
  }

  /**
   * Cell 12: with {@code serve --locale ja}, promptd's form and its error are in Japanese in Claude
   * Code: the bare-language command brings up the form whose frame is Japanese; cancelling it (Esc)
   * ends the command with promptd's -32602, in Japanese, on screen; the model is never asked.
   */
  @Test
  void stdioAFormAndAnErrorInJapanese() throws Exception {
    ClaudeCode claude = stdio("stdio-japanese", "--locale", "ja");
    claude.awaitCommand("translate", START);
    claude.send("/mcp__promptd__translate hello");
    String form = claude.awaitForm(TURN);
    assertThat(form).contains("プロンプト「translate」を使うには").contains("language");
    claude.tmux().awaitStable(Duration.ofSeconds(10)); // a form just drawn may not take keys yet
    claude.tmux().keys("Escape");
    String after = claude.awaitText("キャンセルしました", TURN);
    assertThat(after).contains("必須の引数");
    assertThat(model.requests()).noneMatch(r -> r.body().contains("Translate the text below"));
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "serve --locale ja: /mcp__promptd__translate hello shows promptd's form framed in Japanese;"
            + " Esc ends it with promptd's -32602 in Japanese on screen (必須の引数 … キャンセルしました)");
  }

  /**
   * Cell 13: a prompt named in Japanese ({@code 翻訳.prompt.md}, argument {@code 文章}) is a command:
   * the menu lists {@code /promptd:翻訳 (MCP)}, and {@code /mcp__promptd__翻訳} with Japanese text
   * renders it, the whole text reaching the model.
   */
  @Test
  void stdioAPromptNamedInJapaneseIsACommand() throws Exception {
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
    ClaudeCode claude = stdio("stdio-japanese-name");
    // The menu lists it, but Claude Code's menu matches nothing once a character of another script
    // is typed after the prefix (seen in 2.1.332), so it is looked for under the prefix alone.
    claude.awaitCommand("translate", START);
    assertThat(claude.menuCommands("/mcp__promptd__")).contains("翻訳");
    claude.send("/mcp__promptd__翻訳 今日は晴れです");
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("次の文章を英語に翻訳してください：今日は晴れです", TURN).body())
        .contains("次の文章を英語に翻訳してください：今日は晴れです");
    Matrix.record(
        CELL,
        "stdio",
        "modern 2026-07-28",
        "a prompt named 翻訳 with an argument 文章: the menu for /mcp__promptd__ lists /promptd:翻訳 (MCP)"
            + " (typing 翻 after the prefix empties the menu); /mcp__promptd__翻訳 今日は晴れです typed in"
            + " full renders, the Japanese text reaching the model whole");
  }

  private ClaudeCode stdio(String cell, String... flags) throws Exception {
    // Claude Code spawns promptd; tee keeps both sides of the conversation (to tell the era, and
    // for the report).
    Files.createDirectories(ClaudeCode.SCREENS);
    wire = ClaudeCode.SCREENS.resolve("claude-code-" + cell + ".stdio.jsonl").toAbsolutePath();
    Files.deleteIfExists(wire);
    String log = PromptdServer.shell(List.of(wire.toString()));
    String command = "tee -a " + log + " | "
        + PromptdServer.shell(PromptdServer.stdioCommand(library, flags)) + " | tee -a " + log;
    return start(cell, ClaudeCode.stdioServer(List.of("/bin/sh", "-c", command)));
  }

  private ClaudeCode start(String cell, String serverEntry) throws Exception {
    ClaudeCode claude = ClaudeCode.start(cell, dir.resolve("claude"), serverEntry, model);
    open.add(claude);
    return claude;
  }

  private int http(String token, Path accessLog) throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(
        PromptdServer.httpCommand(
            library, port, "--token", token, "--access-log", accessLog.toString()),
        port);
    open.add(() -> {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    });
    return port;
  }

  private String wire() throws Exception {
    return Files.exists(wire) ? Files.readString(wire) : "";
  }
}
