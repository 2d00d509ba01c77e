package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the Gemini CLI cells and the Qwen Code cells (a fork of Gemini CLI, with the same
 * slash-command rules for MCP prompts) share: a settings file in a fresh home that pre-answers
 * every first-run dialog, the terminal driven in tmux, the screens kept for the report, and the
 * checks on the slash-command suggestions.
 */
final class GeminiFamily {
  /** The seven prompts of {@code examples/prompts}, by the names promptd gives them. */
  static final List<String> EXAMPLE_PROMPTS = List.of(
      "brand-colors",
      "explain",
      "git-commit-message",
      "review",
      "summarize",
      "translate",
      "write-tests");

  /**
   * The parts of {@code /brand-colors --styles=".btn { color: #ff0000; }"} in the order the model
   * must see them, folded into one text message: the first sentence, the palette image as a
   * reference, the second message, the styles typed.
   */
  static final List<String> BRAND_COLORS_FOLDED = List.of(
      "This image is our brand palette: navy #1F3A5F",
      "[image (image/png, 239 bytes), not included]",
      "Check every color in the styles below against the palette.",
      ".btn { color: #ff0000; }");

  /**
   * The parts of the {@code ops/incident-review} skill's prompt (interop-tests' skills fixture) in
   * the order the model must see them: its SKILL.md inlined with its URI, its other files, the task
   * typed.
   */
  static final List<String> SKILL_FOLDED = List.of(
      "[resource skill://ops/incident-review/SKILL.md",
      "Gather the timeline, the alerts and the changes deployed in the hour before.",
      "[end of resource skill://ops/incident-review/SKILL.md]",
      "skill://ops/incident-review/assets/severity.png",
      "INC-42 database failover");

  static final Path CLIENTS = Peers.INTEROP.resolve("clients/node_modules/.bin");
  static final Path SCREENS = Path.of("target", "client-screens");
  static final Duration START = Duration.ofSeconds(90);
  static final Duration STEP = Duration.ofSeconds(45);

  private GeminiFamily() {}

  /** {@code mcpServers} entry that starts {@code command} over stdio. */
  static Map<String, Object> stdioServer(List<String> command) {
    Map<String, Object> server = new LinkedHashMap<>();
    server.put("command", command.getFirst());
    server.put("args", command.subList(1, command.size()));
    server.put("timeout", 60_000);
    return server;
  }

  /** Writes {@code settings} as {@code home/configDir/settings.json}. */
  static void writeSettings(Path home, String configDir, Map<String, Object> settings)
      throws Exception {
    Path file = home.resolve(configDir).resolve("settings.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, TerminalClients.json(settings), UTF_8);
  }

  /**
   * Starts {@code bin} in a 120×50 terminal in {@code work}; screens are logged next to the saved
   * ones.
   */
  static Tmux start(String client, String cell, Path bin, Path work, Map<String, String> env)
      throws Exception {
    Files.createDirectories(SCREENS);
    Files.createDirectories(work);
    Path log = SCREENS.resolve(client + "-" + cell + ".screens.log");
    Files.deleteIfExists(log);
    Map<String, String> all = new LinkedHashMap<>(env);
    all.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    all.put("NO_UPDATE_NOTIFIER", "1");
    return Tmux.start(client + "-" + cell, work, all, List.of(bin.toString()), 120, 50, log);
  }

  /**
   * Saves the final screen as {@code CLIENT-CELL.txt} and closes {@code tmux}; then ends whatever
   * the client left running. The Gemini CLI launcher ignores SIGHUP (it relaunches itself as a
   * child and forwards nothing), so killing the tmux server can leave the client and its MCP
   * servers running: their ids are taken from the tmux server's process tree (its command line
   * names this test's socket) before it is killed, and each still alive afterwards is ended.
   */
  static void close(Tmux tmux, String client, String cell) throws Exception {
    String socket =
        "promptd-lane-" + client + "-" + cell + "-" + ProcessHandle.current().pid() + "-";
    List<ProcessHandle> started = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(socket))
        .flatMap(ProcessHandle::descendants)
        .toList();
    try {
      save(client, cell, tmux.screen());
    } finally {
      tmux.close();
      for (ProcessHandle p : started) {
        p.destroy();
      }
      for (ProcessHandle p : started) {
        try {
          p.onExit().get(5, TimeUnit.SECONDS);
        } catch (TimeoutException stuck) {
          p.destroyForcibly();
        }
      }
    }
  }

  /** Saves {@code screen} as {@code target/client-screens/CLIENT-CELL.txt}. */
  static void save(String client, String cell, String screen) throws Exception {
    Files.createDirectories(SCREENS);
    Files.writeString(SCREENS.resolve(client + "-" + cell + ".txt"), screen, UTF_8);
  }

  /**
   * Types {@code line} into the input box, waits until it shows there and the suggestions have
   * settled (Enter while they are still loading picks one of them instead of submitting the line),
   * and submits it.
   */
  static void submit(Tmux tmux, String line) throws Exception {
    typeShown(tmux, line);
    String[] previous = {""};
    tmux.await("\"" + line + "\" typed, suggestions settled", STEP, s -> {
      boolean settled =
          s.contains(line) && !s.contains("Loading suggestions") && s.equals(previous[0]);
      previous[0] = s;
      return settled;
    });
    tmux.keys("Enter");
  }

  /**
   * Types {@code text} into an emptied input box and waits until it shows. A client busy
   * re-rendering (after a list change, on a loaded machine) can drop what is typed: it is typed
   * again, three times at most.
   */
  static void typeShown(Tmux tmux, String text) throws Exception {
    for (int attempt = 1; ; attempt++) {
      clear(tmux);
      tmux.type(text);
      try {
        tmux.await("\"" + text + "\" shown", Duration.ofSeconds(15), s -> s.contains(text));
        return;
      } catch (AssertionError dropped) {
        if (attempt == 3) {
          throw dropped;
        }
      }
    }
  }

  /** Empties the input box. */
  static void clear(Tmux tmux) throws Exception {
    tmux.keys("C-u");
  }

  /**
   * Types {@code /NAME} and says whether the suggestion list offers {@code NAME} as an MCP prompt
   * command (a line {@code NAME [MCP]}), waiting up to {@code within} for it; leaves the input box
   * empty.
   */
  static boolean offered(Tmux tmux, String name, Duration within) throws Exception {
    typeShown(tmux, "/" + name);
    boolean shown;
    try {
      tmux.await("/" + name + " offered", within, s -> suggests(s, name));
      shown = true;
    } catch (AssertionError notShown) {
      shown = false;
    }
    clear(tmux);
    return shown;
  }

  /**
   * Whether {@code screen} has a suggestion line for the MCP prompt command {@code name}:
   * {@code NAME [MCP]}, or, once the whole name is typed and Qwen Code lists the command's
   * sub-commands instead, its {@code help [MCP]} line (only MCP prompt commands have it).
   */
  static boolean suggests(String screen, String name) {
    boolean typed = false;
    for (String line : screen.split("\n")) {
      String item = line.strip();
      typed |= item.equals("> /" + name) || item.startsWith("> /" + name + " ");
      item = item.startsWith("> ") ? item.substring(2).strip() : item;
      if (item.startsWith(name + " [MCP]")
          || typed && item.startsWith("help [MCP]") && item.contains("Show help for this prompt")) {
        return true;
      }
    }
    return false;
  }

  /** Every example prompt that the suggestion list does not offer as a command. */
  static List<String> notOffered(Tmux tmux, List<String> names) throws Exception {
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      if (!offered(tmux, name, Duration.ofSeconds(10))) {
        missing.add(name);
      }
    }
    return missing;
  }
}
