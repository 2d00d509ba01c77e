package io.promptd.library.parse.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which format reads a file, and the name segments it gives, in the registry's order of precedence.
 */
class PromptFormatsTest {
  @Test
  void eachFileGoesToTheFormatThatClaimsIt(@TempDir Path tmp) throws IOException {
    Map<String, @Nullable String> expected = new LinkedHashMap<>();
    expected.put("a.prompt.md", "native [a]");
    expected.put("team/b.PROMPT.MD", "native [team, b]");
    expected.put("notes.md", null);
    expected.put(".hidden.prompt.md", null);
    expected.put("x.prompt", "dotprompt [x]");
    expected.put("_partial.prompt", null);
    expected.put("y.prompty", "prompty [y]");
    expected.put(".claude/commands/c.md", "claude [c]");
    expected.put(".claude/commands/c.prompt.md", "claude [c]");
    expected.put(".claude/commands/sub/d.md", "claude [sub, d]");
    expected.put(".claude/e.md", null);
    expected.put(".github/prompts/f.prompt.md", "vscode [f]");
    expected.put(".github/prompts/g.md", null);
    expected.put(".codex/prompts/h.md", "codex [h]");
    expected.put(".cursor/commands/i.md", "cursor [i]");
    expected.put(".gemini/commands/git/commit.toml", "gemini [git, commit]");
    expected.put(".gemini/commands/j.md", null);
    expected.put(".claude/commands/k.prompt", "dotprompt [.claude, commands, k]");
    expected.put(
        "pkg/.github/prompts/.claude/commands/m.prompt.md", "vscode [.claude, commands, m]");
    expected.put(".github/prompts/.claude/commands/l.md", "claude [l]");
    Path dir = Files.createDirectories(tmp.resolve("lib"));
    Root root = Root.open(dir, 0);
    expected.forEach(
        (relative, format) -> assertThat(describe(FileKind.classify(root, dir.resolve(relative))))
            .as(relative)
            .isEqualTo(format));
  }

  @Test
  void aRootMayBeAFormatsFolder(@TempDir Path tmp) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(".claude/commands"));
    Root root = Root.open(dir, 0);
    assertThat(describe(FileKind.classify(root, dir.resolve("c.md")))).isEqualTo("claude [c]");
    assertThat(describe(FileKind.classify(root, dir.resolve("p.prompt"))))
        .isEqualTo("dotprompt [p]");
  }

  @Test
  void theRegistryListsEveryFormatOnce() {
    assertThat(PromptFormats.ALL)
        .extracting(PromptFormat::name)
        .containsExactly(
            "claude", "vscode", "codex", "cursor", "gemini", "native", "dotprompt", "prompty");
    assertThat(PromptFormats.ALL).contains(PromptFormats.NATIVE);
  }

  /**
   * The names the messages list are the ones each format reads: a file named so goes to that
   * format.
   */
  @Test
  void eachFormatsPatternNamesFilesItReads(@TempDir Path tmp) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("lib"));
    Root root = Root.open(dir, 0);
    for (PromptFormat format : PromptFormats.ALL) {
      String file = format.pattern().replace("*", "x");
      assertThat(describe(FileKind.classify(root, dir.resolve(file))))
          .as(format.pattern())
          .isEqualTo(format.name() + " [x]");
    }
    assertThat(PromptFormats.patterns())
        .hasSize(PromptFormats.ALL.size())
        .startsWith("*.prompt.md", ".claude/commands/*.md");
  }

  private static @Nullable String describe(FileKind.@Nullable Match match) {
    return match == null ? null : match.format().name() + " " + List.copyOf(match.nameSegments());
  }
}
