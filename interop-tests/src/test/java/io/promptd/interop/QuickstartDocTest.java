package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * README.md's quickstart, followed as a new user does in a fresh home: its shell blocks run as
 * written (the clone is this checkout), its {@code promptd check} prints what the README shows, and
 * the real Claude Code then offers {@code /promptd:standup}, asks for its arguments in the form the
 * README shows, and sends the filled-in template to the model.
 */
class QuickstartDocTest {
  /**
   * One README's quickstart: its file and heading, the prompt it writes, the required field the
   * form asks for, what is typed into it, and the start of what the model then receives.
   */
  record Quickstart(
      String readme, String heading, String prompt, String field, String typed, String rendered) {
    @Override
    public String toString() {
      return readme;
    }
  }

  static Stream<Quickstart> quickstarts() {
    return Stream.of(
        new Quickstart(
            "README.md",
            "## Quickstart: your first prompt in Claude Code",
            "standup",
            "notes",
            "fixed the login bug, next the release notes",
            "Write my stand-up update from these notes, brief:\\n\\n"),
        new Quickstart(
            "README.zh-CN.md",
            "## 快速上手：在 Claude Code 里用上你的第一个提示词",
            "站会",
            "笔记",
            "修好了登录问题",
            "请根据下面的笔记写我的站会发言，简短：\\n\\n"),
        new Quickstart(
            "README.ja.md",
            "## クイックスタート：Claude Code で最初のプロンプトを使う",
            "朝会",
            "メモ",
            "ログインの不具合を直した",
            "次のメモから、朝会での私の報告を簡潔に書いてください：\\n\\n"));
  }

  @ParameterizedTest
  @MethodSource("quickstarts")
  void theReadmesQuickstartEndsWithThePromptUsedInClaudeCode(Quickstart q, @TempDir Path dir)
      throws Exception {
    ClaudeCode.require();
    List<String> blocks = blocks(q, "sh");
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
            "quickstart-" + q.readme().replace(".md", ""),
            dir,
            "set -e\ncd '" + Peers.ROOT + "'\n" + write + addToClaude,
            model)) {
      try {
        if (q.prompt().chars().allMatch(c -> c < 128)) {
          claude.awaitCommand(q.prompt(), Duration.ofSeconds(90));
        } else {
          // Claude Code's menu stops matching at a character of another script: the README says
          // to pick it from the menu of /promptd: or to type the whole command, as done here.
          Poll.until(
              Duration.ofSeconds(90),
              Duration.ofSeconds(1),
              () -> "the menu of /promptd: lists " + q.prompt(),
              () -> {
                try {
                  return claude.menuCommands("/promptd:").contains(q.prompt());
                } catch (AssertionError notYet) {
                  return false; // the server is still starting: no menu yet
                }
              });
          claude.clearInput();
        }
        claude.send("/mcp__promptd__" + q.prompt());
        String form = claude.awaitForm(Duration.ofSeconds(60));
        for (String line : blocks(q, "text").getFirst().strip().lines().toList()) {
          assertThat(form).as(q.readme() + "'s form screen").contains(line.strip());
        }
        claude.fill(q.field(), q.typed());
        claude.accept();
        String wanted = q.rendered() + q.typed();
        Poll.until(
            Duration.ofSeconds(60),
            Duration.ofMillis(200),
            () -> "the model receives \"" + wanted + "\"; it received "
                + model.requests().size() + " request(s)",
            () -> model.requests().stream().anyMatch(e -> unescaped(e.body()).contains(wanted)));
      } finally {
        TerminalClients.endProcessesIn(home.resolve("prompts").toString());
      }
    }
  }

  /** A JSON body with its \\uXXXX escapes read, as the model sees the text. */
  private static String unescaped(String body) {
    Matcher m = Pattern.compile("\\\\u([0-9a-fA-F]{4})").matcher(body);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 16))));
    }
    return m.appendTail(out).toString();
  }

  /** The quickstart's fenced blocks in {@code lang}, in order. */
  private static List<String> blocks(Quickstart q, String lang) throws Exception {
    String text = Files.readString(Peers.ROOT.resolve(q.readme()), UTF_8);
    int at = text.indexOf("\n" + q.heading() + "\n");
    assertThat(at).as(q.heading()).isNotNegative();
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
