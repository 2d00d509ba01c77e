package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./promptd serve DIR} typed into a real terminal (tmux): a person, not an MCP client, is at
 * its standard input. It says so and what to run instead, answers a typed line with the short hint
 * beside the server's own -32700, and ends on Ctrl-D.
 */
class ServeTerminalTest {
  @Test
  void servingInATerminalSaysWhatToRunInsteadAndEndsOnCtrlD(@TempDir Path tmp) throws Exception {
    Tmux.require();
    Map<String, String> env = Map.of(
        "PATH", System.getenv("PATH"),
        "HOME", tmp.toString(),
        "JAVA_HOME", System.getProperty("java.home"),
        "LANG", "C.UTF-8");
    try (Tmux terminal = Tmux.start(
        "serve-terminal",
        Peers.ROOT,
        env,
        List.of(Peers.ROOT.resolve("promptd").toString(), "serve", "examples/prompts"),
        200,
        40,
        tmp.resolve("screens.txt"))) {
      String start = terminal.awaitText("browse them at", Duration.ofSeconds(90));
      String launcher = Peers.ROOT.resolve("promptd").toString();
      String dir = Peers.ROOT.resolve("examples/prompts").toString(); // as serve resolved it
      assertThat(start)
          .contains("prompt(s) over stdio")
          .contains("promptd: standard input is a terminal. MCP clients start promptd serve")
          .contains("  " + launcher + " clients " + dir + "   # add them to an MCP client")
          .contains("  " + launcher + " list --stdio '" + launcher + " serve " + dir + "'   # list")
          .contains(
              "  " + launcher + " serve --http 3000 --catalog " + dir + "   # browse them at");

      terminal.type("hello");
      terminal.keys("Enter");
      String typed = terminal.awaitText("\"code\":-32700", Duration.ofSeconds(30));
      assertThat(typed)
          .contains(
              "promptd: that line is not JSON-RPC: MCP clients start promptd serve themselves");

      terminal.keys("C-d");
      terminal.await("promptd ends", Duration.ofSeconds(30), s -> !aliveQuietly(terminal));
    }
  }

  private static boolean aliveQuietly(Tmux terminal) {
    try {
      return terminal.alive();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
