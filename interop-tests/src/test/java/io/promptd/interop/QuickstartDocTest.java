package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's quickstart, followed as a new user does in a fresh home: its shell blocks run as
 * written (the clone is this checkout), its {@code promptd check} prints what the README shows, and
 * the real Claude Code then offers {@code /promptd:standup}, asks for its arguments in the form the
 * README shows, and sends the filled-in template to the model.
 */
class QuickstartDocTest {
  private static final Path README = Peers.ROOT.resolve("README.md");
  private static final String HEADING = "## Quickstart: your first prompt in Claude Code";

  @Test
  void theReadmesQuickstartEndsWithThePromptUsedInClaudeCode(@TempDir Path dir) throws Exception {
    ClaudeCode.require();
    List<String> blocks = blocks("sh");
    assertThat(blocks).hasSize(3);
    assertThat(blocks.get(0)) // cannot run here: the public repository; this checkout stands in
        .contains("git clone https://github.com/promptd/promptd.git\ncd promptd\n");
    String write = blocks.get(1);
    String addToClaude = blocks.get(2);

    // The check line's output, as the README shows it under the command.
    Path home = Files.createDirectories(dir.resolve("home"));
    String shown = addToClaude
        .lines()
        .filter(l -> l.startsWith("# "))
        .map(l -> l.substring(2))
        .findFirst()
        .orElseThrow();
    String check = addToClaude
        .lines()
        .filter(l -> l.startsWith("./promptd check"))
        .findFirst()
        .orElseThrow();
    assertThat(sh(home, write + check + "\n")).isEqualTo(shown + "\n");

    try (ModelStandIn model = ModelStandIn.start(ClaudeCode::anthropic);
        ClaudeCode claude = ClaudeCode.startAfter(
            "quickstart", dir, "set -e\ncd '" + Peers.ROOT + "'\n" + write + addToClaude, model)) {
      try {
        claude.awaitCommand("standup", Duration.ofSeconds(90));
        claude.send("/mcp__promptd__standup");
        String form = claude.awaitForm(Duration.ofSeconds(60));
        for (String line : blocks("text").getFirst().strip().lines().toList()) {
          assertThat(form).as("README's form screen").contains(line.strip());
        }
        claude.fill("notes", "fixed the login bug, next the release notes");
        claude.accept();
        assertThat(
                model.await("Write my stand-up update", Duration.ofSeconds(60)).body())
            .contains("Write my stand-up update from these notes, brief:\\n\\n"
                + "fixed the login bug, next the release notes");
      } finally {
        TerminalClients.endProcessesIn(home.resolve("prompts").toString());
      }
    }
  }

  /** The quickstart's fenced blocks in {@code lang}, in order. */
  private static List<String> blocks(String lang) throws Exception {
    String text = Files.readString(README, UTF_8);
    int at = text.indexOf("\n" + HEADING + "\n");
    assertThat(at).as(HEADING).isNotNegative();
    int end = text.indexOf("\n## ", at + 1);
    String section = text.substring(at, end < 0 ? text.length() : end);
    List<String> blocks = new ArrayList<>();
    String fence = "\n```" + lang + "\n";
    for (int i = section.indexOf(fence); i >= 0; i = section.indexOf(fence, i + 1)) {
      int start = i + fence.length();
      blocks.add(section.substring(start, section.indexOf("\n```", start) + 1));
    }
    return blocks;
  }

  /** Runs {@code script} with {@code sh} in the checkout, {@code home} as HOME; its output. */
  private static String sh(Path home, String script) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "set -e\n" + script)
        .directory(Peers.ROOT.toFile())
        .redirectErrorStream(true);
    pb.environment().put("HOME", home.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
