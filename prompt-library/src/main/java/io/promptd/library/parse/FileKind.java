package io.promptd.library.parse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The formats a library reads, recognized by where a file sits:
 *
 * <ul>
 *   <li>{@link #CLAUDE}: any {@code *.md} under a {@code .claude/commands/} folder;
 *   <li>{@link #VSCODE}: any {@code *.prompt.md} under a {@code .github/prompts/} folder;
 *   <li>{@link #NATIVE}: any other {@code *.prompt.md}.
 * </ul>
 *
 * <p>A root may be such a folder itself ({@code promptd serve .claude/commands}) or contain one.
 */
public enum FileKind {
  /** {@code NAME.prompt.md}: YAML front matter and a Mustache body. */
  NATIVE,
  /** A Claude Code command: {@code $ARGUMENTS}, {@code $1}…{@code $9}. */
  CLAUDE,
  /** A VS Code prompt file: {@code ${input:name}}. */
  VSCODE;

  /**
   * What a file is and the path its default name comes from.
   *
   * @param kind the format
   * @param nameSegments the folders and file name (extension removed) below the format's folder or the root
   */
  public record Match(FileKind kind, List<String> nameSegments) {
    /** Copies the segments. */
    public Match {
      nameSegments = List.copyOf(nameSegments);
    }
  }

  /** Classifies {@code file} under {@code root}; null when it is not a prompt file. */
  public static @Nullable Match classify(Root root, Path file) {
    List<String> full = new ArrayList<>();
    Path absolute = root.path().toAbsolutePath();
    int count = absolute.getNameCount();
    for (int i = Math.max(0, count - 2); i < count; i++) {
      full.add(absolute.getName(i).toString());
    }
    int rootSegments = full.size();
    for (Path part : root.path().relativize(file)) {
      full.add(part.toString());
    }
    String fileName = full.getLast().toLowerCase(Locale.ROOT);
    if (!fileName.endsWith(".md") || fileName.startsWith(".")) {
      return null;
    }
    for (int i = 0; i + 2 < full.size(); i++) {
      if (full.get(i).equals(".claude") && full.get(i + 1).equals("commands")) {
        String suffix = fileName.endsWith(".prompt.md") ? ".prompt.md" : ".md";
        return new Match(CLAUDE, strip(full.subList(i + 2, full.size()), suffix));
      }
      if (full.get(i).equals(".github") && full.get(i + 1).equals("prompts") && fileName.endsWith(".prompt.md")) {
        return new Match(VSCODE, strip(full.subList(i + 2, full.size()), ".prompt.md"));
      }
    }
    if (fileName.endsWith(".prompt.md")) {
      return new Match(NATIVE, strip(full.subList(rootSegments, full.size()), ".prompt.md"));
    }
    return null;
  }

  private static List<String> strip(List<String> segments, String suffix) {
    List<String> out = new ArrayList<>(segments);
    String last = out.getLast();
    out.set(out.size() - 1, last.substring(0, last.length() - suffix.length()));
    return out;
  }
}
