package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.Assumptions;

/**
 * Claude Code 2.1.332 (the pinned {@code interop/clients}) in a tmux terminal, as a person uses it:
 * slash commands typed into its prompt box, its command menu read and scrolled, the MCP form it
 * shows for a server's question answered with the arrow keys. Starts without a first-run dialog: a
 * fresh {@code HOME} whose {@code .claude.json} says onboarding is done, the working folder is
 * trusted and the dummy API key is approved; the MCP servers come from {@code --mcp-config} with
 * {@code --strict-mcp-config} (nothing to approve, no user or project servers); the model API is a
 * {@link ModelStandIn}.
 *
 * <p>How Claude Code's MCP form works in the terminal (as seen in 2.1.332; the form says "MCP
 * server “NAME” requests your input", then the server's message, then one line per field, then
 * "Accept Decline"):
 *
 * <ul>
 *   <li>The focused line starts with {@code ❯}; ↑/↓ move between the fields and the Accept/Decline
 *       row. A required field is marked {@code *}, a field with a value {@code ✔}, an optional one
 *       without a value blank.
 *   <li>A text field shows "Type something…"; when it is focused, typed characters (spaces too) go
 *       into it.
 *   <li>An enum field shows {@code ▸ VALUE} (or {@code ▸ not set}); → expands it into one {@code ◯
 *       OPTION} line per choice with its own {@code ❯}, ↑/↓ move within the choices, Space selects
 *       one and collapses the list.
 *   <li>A default is filled in already ({@code ✔ tone: neutral}); Backspace unsets a field.
 *   <li>On the {@code ❯ Accept Decline} row Enter accepts (→ would pick Decline); Esc cancels the
 *       form.
 * </ul>
 *
 * <p>The command menu: typing {@code /mcp__promptd__} or {@code /promptd:} opens a menu of matching
 * commands, listed as {@code /promptd:NAME (MCP)} with the description and "(arguments: …)"; it
 * shows only a few at a time (two at 120×40, their descriptions wrap) and ↓ scrolls (wrapping round
 * at the end). While the menu is open (a command name without arguments typed), the first Enter
 * completes the command and shows the argument names as a hint, a second Enter sends it; with
 * arguments after a space the menu is closed and one Enter sends it.
 */
final class ClaudeCode implements AutoCloseable {
  static final String VERSION = "2.1.332";
  static final Path BINARY = Peers.INTEROP.resolve("clients/node_modules/.bin/claude");
  static final Path SCREENS = Path.of("target", "client-screens");
  /** A dummy key: the model API is a stand-in on loopback. */
  static final String API_KEY = "sk-ant-api03-promptd-interop-lane-0123456789abcdefghij";

  private static final Pattern SELECTED_COMMAND = Pattern.compile("(?m)^ +❯ /(\\S+) \\(MCP\\)");
  private static final Pattern OPTION = Pattern.compile("(?m)^\\s*❯ [◯◉●○] (.+?)\\s*$");

  private final Tmux tmux;
  private final String cell;
  private final Path mcpConfig;
  private int forms;

  private ClaudeCode(Tmux tmux, String cell, Path mcpConfig) {
    this.tmux = tmux;
    this.cell = cell;
    this.mcpConfig = mcpConfig;
  }

  /**
   * Skips the calling test when Claude Code is not installed, except in CI, where its absence is a
   * failure.
   */
  static void require() {
    Tmux.require();
    boolean installed = Files.isExecutable(BINARY);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "Claude Code is missing in CI: npm ci --prefix interop/clients");
    }
    Assumptions.assumeThat(installed)
        .as("Claude Code installed (npm ci --prefix interop/clients)")
        .isTrue();
  }

  /** An MCP server entry for {@code --mcp-config}: a stdio command. */
  static String stdioServer(List<String> command) {
    StringBuilder args = new StringBuilder();
    for (String a : command.subList(1, command.size())) {
      args.append(args.isEmpty() ? "" : ", ").append(TerminalClients.json(a));
    }
    return "{\"type\": \"stdio\", \"command\": " + TerminalClients.json(command.getFirst())
        + ", \"args\": [" + args + "]}";
  }

  /**
   * An MCP server entry for {@code --mcp-config}: a stdio command with {@code env} added to its
   * environment.
   */
  static String stdioServer(List<String> command, Map<String, String> env) {
    StringBuilder e = new StringBuilder();
    new TreeMap<>(env)
        .forEach((k, v) -> e.append(e.isEmpty() ? "" : ", ")
            .append(TerminalClients.json(k))
            .append(": ")
            .append(TerminalClients.json(v)));
    String plain = stdioServer(command);
    return plain.substring(0, plain.length() - 1) + ", \"env\": {" + e + "}}";
  }

  /**
   * An MCP server entry for {@code --mcp-config}: Streamable HTTP, with {@code headers} sent on
   * every request.
   */
  static String httpServer(String url, Map<String, String> headers) {
    StringBuilder h = new StringBuilder();
    headers.forEach((k, v) -> h.append(h.isEmpty() ? "" : ", ")
        .append(TerminalClients.json(k))
        .append(": ")
        .append(TerminalClients.json(v)));
    return "{\"type\": \"http\", \"url\": " + TerminalClients.json(url) + ", \"headers\": {" + h
        + "}}";
  }

  /**
   * Starts Claude Code in {@code dir}/project with a fresh home under {@code dir}, the MCP server
   * {@code promptd} configured by {@code serverEntry}, and the model API at {@code model}. Returns
   * once its prompt box is shown. {@code cell} names the screen files in
   * {@code target/client-screens}.
   */
  static ClaudeCode start(String cell, Path dir, String serverEntry, ModelStandIn model)
      throws Exception {
    return launch(
        cell,
        dir,
        model,
        "{\"mcpServers\": {\"promptd\": " + serverEntry + "}}\n",
        true,
        null,
        Map.of());
  }

  /**
   * Starts Claude Code configured the way a user does it: {@code setup}, a shell command line such
   * as the {@code claude mcp add …} line {@code promptd clients} prints, runs first in the fresh
   * home (with {@code claude} on its PATH); the command line names no server, so Claude Code reads
   * the ones {@code setup} added.
   */
  static ClaudeCode startAfter(String cell, Path dir, String setup, ModelStandIn model)
      throws Exception {
    return startAfter(cell, dir, setup, model, Map.of());
  }

  /** {@link #startAfter(String, Path, String, ModelStandIn)} with {@code env} added. */
  static ClaudeCode startAfter(
      String cell, Path dir, String setup, ModelStandIn model, Map<String, String> env)
      throws Exception {
    return launch(cell, dir, model, "{\"mcpServers\": {}}\n", false, setup, env);
  }

  private static ClaudeCode launch(
      String cell,
      Path dir,
      ModelStandIn model,
      String mcpServers,
      boolean strict,
      @org.jspecify.annotations.Nullable String setup,
      Map<String, String> extraEnv)
      throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path project = Files.createDirectories(dir.resolve("project")).toRealPath();
    String keyTail = API_KEY.substring(API_KEY.length() - 20);
    Files.writeString(
        home.resolve(".claude.json"),
        "{\"hasCompletedOnboarding\": true, "
            + "\"customApiKeyResponses\": {\"approved\": [" + TerminalClients.json(keyTail)
            + "], \"rejected\": []}, "
            + "\"projects\": {" + TerminalClients.json(project.toString())
            + ": {\"hasTrustDialogAccepted\": true}}}\n",
        UTF_8);
    // Given even when empty: its path on Claude Code's command line is how close() finds the
    // process.
    Path mcpConfig = dir.resolve("mcp-config.json");
    Files.writeString(mcpConfig, mcpServers, UTF_8);

    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("ANTHROPIC_API_KEY", API_KEY);
    env.put("ANTHROPIC_BASE_URL", model.url());
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.putAll(extraEnv);
    if (setup != null) {
      ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", setup)
          .directory(project.toFile())
          .redirectErrorStream(true);
      pb.environment().clear();
      pb.environment().putAll(env);
      pb.environment().put("PATH", BINARY.getParent() + ":" + env.get("PATH"));
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new AssertionError("the set-up command failed: " + setup + "\n" + out);
      }
    }
    Files.createDirectories(SCREENS);
    Path log = SCREENS.resolve("claude-code-" + cell + ".all.txt");
    Files.deleteIfExists(log);
    try (var old = Files.newDirectoryStream(SCREENS, "claude-code-" + cell + "-form*.txt")) {
      for (Path f : old) {
        Files.delete(f);
      }
    }
    Tmux tmux = Tmux.start(
        "claude-" + cell,
        project,
        env,
        strict
            ? List.of(
                BINARY.toString(), "--mcp-config", mcpConfig.toString(), "--strict-mcp-config")
            : List.of(BINARY.toString(), "--mcp-config", mcpConfig.toString()),
        120,
        40,
        log);
    ClaudeCode claude = new ClaudeCode(tmux, cell, mcpConfig);
    try {
      tmux.await(
          "Claude Code " + VERSION + " started with its prompt box",
          Duration.ofSeconds(60),
          s -> s.contains("Claude Code v" + VERSION) && s.contains("shift+tab to cycle"));
    } catch (Throwable e) {
      claude.close();
      throw e;
    }
    return claude;
  }

  Tmux tmux() {
    return tmux;
  }

  /**
   * The screen, its no-break spaces (Claude Code puts one after the prompt box's ❯) made plain
   * spaces.
   */
  String screen() throws Exception {
    return plain(tmux.screen());
  }

  /** Returns the screen (as {@link #screen()}) once {@code check} holds for it. */
  String await(String what, Duration within, Predicate<String> check) throws Exception {
    return plain(tmux.await(what, within, s -> check.test(plain(s))));
  }

  /** Returns the screen once it shows {@code text}. */
  String awaitText(String text, Duration within) throws Exception {
    return await("the screen shows \"" + text + "\"", within, s -> s.contains(text));
  }

  private static String plain(String screen) {
    return screen.replace('\u00a0', ' ');
  }

  /**
   * Empties the prompt box (Ctrl+U deletes the line and closes the menu; Esc twice would open the
   * rewind menu).
   */
  void clearInput() throws Exception {
    tmux.keys("C-u");
    await(
        "the prompt box emptied",
        Duration.ofSeconds(10),
        s -> s.lines().anyMatch(l -> l.strip().equals("❯")));
  }

  /**
   * Types {@code /mcp__promptd__NAME} into an empty prompt box until the command menu lists
   * {@code /promptd:NAME (MCP)}; types it again every few seconds (the server may still be
   * starting, or reloading).
   */
  String awaitCommand(String name, Duration within) throws Exception {
    String wanted = "/promptd:" + name + " (MCP)";
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      clearInput();
      tmux.type("/mcp__promptd__" + name);
      Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
      Duration round = left.compareTo(Duration.ofSeconds(5)) < 0 ? left : Duration.ofSeconds(5);
      try {
        String screen = awaitText(wanted, round);
        clearInput();
        return screen;
      } catch (AssertionError notYet) {
        if (System.nanoTime() - deadline >= 0) {
          throw new AssertionError(
              "not within " + within.toSeconds() + " s: the command menu lists " + wanted + "\n"
                  + notYet.getMessage(),
              notYet);
        }
      }
    }
  }

  /**
   * Every {@code promptd:} command in the command menu for {@code prefix}, in menu order: the menu
   * shows a few at a time, so ↓ is pressed until the selection comes round to the first again.
   */
  Set<String> menuCommands(String prefix) throws Exception {
    clearInput();
    tmux.type(prefix);
    String first = selectedCommand(await(
        "the command menu for " + prefix + " is open",
        Duration.ofSeconds(10),
        s -> selectedCommand(s) != null));
    Set<String> names = new LinkedHashSet<>();
    names.add(first);
    String current = first;
    for (int i = 0; i < 40; i++) {
      tmux.keys("Down");
      String before = current;
      String after = selectedCommand(await(
          "the menu selection moves down from /" + before,
          Duration.ofSeconds(5),
          s -> !before.equals(selectedCommand(s))));
      if (after == null || after.equals(first)) {
        break;
      }
      names.add(after);
      current = after;
    }
    List<String> promptd = new ArrayList<>();
    for (String n : names) {
      if (n.startsWith("promptd:")) {
        promptd.add(n.substring("promptd:".length()));
      }
    }
    return new LinkedHashSet<>(promptd);
  }

  private static String selectedCommand(String screen) {
    Matcher m = SELECTED_COMMAND.matcher(screen);
    return m.find() ? m.group(1) : null;
  }

  /**
   * Types {@code command} into an empty prompt box and sends it: Enter, and once more if the first
   * Enter only completed the command in the menu (the command without arguments).
   */
  void send(String command) throws Exception {
    clearInput();
    tmux.type(command);
    awaitText("❯ " + command, Duration.ofSeconds(10));
    tmux.keys("Enter");
    Pattern completed = Pattern.compile("❯ " + Pattern.quote(command) + " +\\[");
    try {
      // The menu completed the bare command ("❯ /mcp__promptd__translate  [text] [language]
      // [tone]"): send it.
      await(
          "the command was completed in the prompt box",
          Duration.ofSeconds(3),
          s -> completed.matcher(s).find());
      tmux.keys("Enter");
    } catch (AssertionError sent) {
      // sent with the first Enter
    }
  }

  /** Waits for promptd's form ("MCP server “promptd” requests your input"). */
  String awaitForm(Duration within) throws Exception {
    return await(
        "Claude Code shows promptd's form (\"MCP server “promptd” requests your input\")",
        within,
        s -> s.contains("promptd") && s.contains("requests your input") && s.contains("Accept"));
  }

  /**
   * Moves the form's focus ({@code ❯}) to {@code field}: ↓ round the form, then ↑ if ↓ stops at the
   * buttons.
   */
  void focus(String field) throws Exception {
    // "❯ * text:", "❯ ✔ tone:"; an optional field without a value has a blank mark: "❯   focus:".
    Pattern focused = Pattern.compile("(?m)^\\s*❯ (?:[*✔ ] )?" + Pattern.quote(field) + ":");
    for (String key : List.of("Down", "Up")) {
      for (int i = 0; i < 12; i++) {
        String s = screen();
        if (focused.matcher(s).find()) {
          return;
        }
        tmux.press(key, Duration.ofSeconds(2));
      }
    }
    throw new AssertionError(
        "the form's field \"" + field + "\" could not be focused:\n" + screen());
  }

  /** Types {@code value} into the text field {@code field}. */
  void fill(String field, String value) throws Exception {
    focus(field);
    tmux.type(value);
    awaitText(field + ": " + value, Duration.ofSeconds(10));
  }

  /**
   * Chooses {@code option} in the enum field {@code field}: → to expand, ↓ to the option, Space to
   * select.
   */
  void choose(String field, String option) throws Exception {
    focus(field);
    tmux.keys("Right");
    await(
        "the choices of \"" + field + "\" expanded",
        Duration.ofSeconds(10),
        s -> OPTION.matcher(s).find());
    for (String key : List.of("Down", "Up")) {
      for (int i = 0; i < 20; i++) {
        Matcher m = OPTION.matcher(screen());
        if (m.find() && m.group(1).equals(option)) {
          tmux.keys("Space");
          await(
              field + " set to " + option,
              Duration.ofSeconds(10),
              s -> s.contains(field + ": ▸ " + option) || s.contains(field + ": " + option));
          return;
        }
        tmux.press(key, Duration.ofSeconds(2));
      }
    }
    throw new AssertionError("no choice \"" + option + "\" in \"" + field + "\":\n" + screen());
  }

  /**
   * Moves to the form's Accept button and presses Enter. The form as accepted is saved as
   * {@code target/client-screens/claude-code-CELL-form.txt} (the second as {@code -form2.txt}, …).
   */
  void accept() throws Exception {
    for (int i = 0; i < 12 && !screen().contains("❯ Accept"); i++) {
      tmux.press("Down", Duration.ofSeconds(2));
    }
    String form = awaitText("❯ Accept", Duration.ofSeconds(5));
    forms++;
    Files.writeString(
        SCREENS.resolve("claude-code-" + cell + "-form" + (forms == 1 ? "" : forms) + ".txt"),
        form.stripTrailing() + "\n",
        UTF_8);
    tmux.awaitStable(Duration.ofSeconds(10)); // a form just drawn may not take keys yet
    // Gone, or a new form (its focus on a field): either way, not this one's Accept any more. An
    // Enter that came before the form took keys is pressed again, up to three times.
    for (int tries = 1; ; tries++) {
      tmux.keys("Enter");
      try {
        await("the form accepted", Duration.ofSeconds(5), s -> !s.contains("❯ Accept"));
        return;
      } catch (AssertionError stillThere) {
        if (tries == 3) {
          throw stillThere;
        }
      }
    }
  }

  /** Waits until the model stand-in's reply is shown (the turn is over). */
  String awaitReply(Duration within) throws Exception {
    return awaitText("● stand-in reply", within);
  }

  /**
   * Waits until the model stand-in's reply is shown, accepting as filled in any form promptd shows
   * on the way (with form-first arguments promptd may ask a form client to check values it was
   * given: "will use these values: check them, then accept"). Returns how many forms were accepted.
   */
  int awaitReplyAcceptingForms(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    int accepted = 0;
    while (true) {
      Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
      String s = await(
          "the model's reply shown",
          left,
          x -> x.contains("● stand-in reply")
              || (x.contains("requests your input") && x.contains("Accept")));
      if (s.contains("● stand-in reply")) {
        return accepted;
      }
      accept();
      accepted++;
      await("the form closed", Duration.ofSeconds(10), x -> !x.contains("requests your input"));
    }
  }

  /**
   * Saves the screen as {@code target/client-screens/claude-code-CELL.txt}, ends Claude Code and
   * its tmux server, and waits for Claude Code to exit (it writes into its home as it ends).
   */
  @Override
  public void close() throws Exception {
    List<ProcessHandle> claude = TerminalClients.processesMentioning(mcpConfig.toString());
    try {
      Files.writeString(
          SCREENS.resolve("claude-code-" + cell + ".txt"), screen().stripTrailing() + "\n", UTF_8);
    } catch (Exception | AssertionError ignored) {
      // no screen to save
    } finally {
      tmux.close();
      TerminalClients.awaitExit(claude);
    }
  }

  /**
   * A canned Anthropic Messages API answer: an SSE stream for a streaming request, else one JSON
   * message.
   */
  static ModelStandIn.Reply anthropic(ModelStandIn.Exchange request) {
    if (request.path().contains("count_tokens")) {
      return new ModelStandIn.Reply(200, "application/json", "{\"input_tokens\": 10}");
    }
    if (!request.body().replace(" ", "").contains("\"stream\":true")) {
      return new ModelStandIn.Reply(
          200,
          "application/json",
          "{\"id\":\"msg_standin\",\"type\":\"message\","
              + "\"role\":\"assistant\",\"model\":\"claude-stand-in\",\"content\":[{\"type\":\"text\","
              + "\"text\":\"stand-in reply\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
              + "\"usage\":{\"input_tokens\":10,\"output_tokens\":3}}");
    }
    String[][] events = {
      {
        "message_start",
        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_standin\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"claude-stand-in\",\"content\":[],\"stop_reason\":null,"
            + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}"
      },
      {
        "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,"
            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"
      },
      {
        "content_block_delta",
        "{\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"stand-in reply\"}}"
      },
      {"content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"},
      {
        "message_delta",
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
            + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":3}}"
      },
      {"message_stop", "{\"type\":\"message_stop\"}"},
    };
    StringBuilder sse = new StringBuilder();
    for (String[] e : events) {
      sse.append("event: ").append(e[0]).append("\ndata: ").append(e[1]).append("\n\n");
    }
    return new ModelStandIn.Reply(200, "text/event-stream", sse.toString());
  }
}
