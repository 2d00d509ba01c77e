package io.promptd.library.parse.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing classifies a file from its folder and name exactly as the path-by-path classification
 * does.
 */
class FileKindTest {
  private static final List<String> FILES = List.of(
      "a.prompt.md",
      "A.PROMPT.MD",
      "notes.md",
      ".hidden.prompt.md",
      "x.txt",
      "team/deep/b.prompt.md",
      ".claude/commands/c.md",
      ".claude/commands/c.prompt.md",
      ".claude/commands/sub/d.md",
      ".claude/e.md",
      ".github/prompts/f.prompt.md",
      ".github/prompts/g.md",
      ".github/prompts/sub/h.prompt.md",
      "pkg/.claude/commands/i.md",
      "pkg/.github/prompts/.claude/commands/j.prompt.md",
      ".claude/commands/.github/prompts/k.prompt.md",
      ".github/prompts/.claude/commands/l.md",
      "commands/m.prompt.md",
      ".claude/commands",
      "x/.claude/commands/İ.PROMPT.md");

  @Test
  void folderAndNameGiveThePathsAnswer(@TempDir Path tmp) throws IOException {
    for (String rootName : List.of("lib", ".claude/commands", ".github/prompts", ".claude")) {
      Path dir = Files.createDirectories(tmp.resolve(rootName));
      Root root = Root.open(dir, 0);
      for (String relative : FILES) {
        Path file = dir.resolve(relative);
        Path folder = file.getParent();
        String name = file.getFileName().toString();
        FileKind.Folder byName = FileKind.Folder.of(root, folder);
        assertThat(FileKind.classify(byName, name))
            .as(rootName + " " + relative)
            .isEqualTo(FileKind.classify(root, file));
        // The same folder reached by walking down from the root, as a listing does.
        FileKind.Folder walked = FileKind.Folder.of(root, dir);
        for (Path part : dir.relativize(folder)) {
          if (!part.toString().isEmpty()) {
            walked = walked.child(part.toString());
          }
        }
        assertThat(FileKind.classify(walked, name))
            .as(rootName + " " + relative + " walked")
            .isEqualTo(FileKind.classify(root, file));
      }
    }
  }
}
