package io.promptd.library.parse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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

  /**
   * Classifies the file named {@code fileName} in {@code folder}; the same answer as {@link #classify(Root, Path)} for
   * that file, worked out from the name alone.
   */
  public static @Nullable Match classify(Folder folder, String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    if (!lower.endsWith(".md") || lower.startsWith(".")) {
      return null;
    }
    boolean promptMd = lower.endsWith(".prompt.md");
    // The format folder nearest the top wins, as in the segment-by-segment walk of classify(Root, Path).
    if (folder.claude >= 0 && (!promptMd || folder.github < 0 || folder.claude < folder.github)) {
      return new Match(CLAUDE, folder.below(folder.claude + 2, fileName, promptMd ? ".prompt.md" : ".md"));
    }
    if (promptMd && folder.github >= 0) {
      return new Match(VSCODE, folder.below(folder.github + 2, fileName, ".prompt.md"));
    }
    return promptMd ? new Match(NATIVE, folder.below(folder.rootSegments, fileName, ".prompt.md")) : null;
  }

  /**
   * A folder as {@link #classify(Folder, String)} sees it, worked out once for all the files in it: a listing of
   * 100,000 files then makes no {@link Path} per segment of each file's path.
   */
  public static final class Folder {
    /** The root's last two folder names, then the folders from the root down to this one. */
    private final String[] segments;
    private final int rootSegments;
    /** Where {@code .claude/commands} and {@code .github/prompts} first start in {@link #segments}, or -1. */
    private final int claude;
    private final int github;

    private Folder(String[] segments, int rootSegments) {
      this.segments = segments;
      this.rootSegments = rootSegments;
      int c = -1;
      int g = -1;
      for (int i = segments.length - 2; i >= 0; i--) {
        if (segments[i].equals(".claude") && segments[i + 1].equals("commands")) {
          c = i;
        } else if (segments[i].equals(".github") && segments[i + 1].equals("prompts")) {
          g = i;
        }
      }
      this.claude = c;
      this.github = g;
    }

    /** The folder {@code dir}, which is {@code root}'s folder or lies under it. */
    public static Folder of(Root root, Path dir) {
      Path absolute = root.path().toAbsolutePath();
      int count = absolute.getNameCount();
      String[] top = new String[Math.min(2, count)];
      for (int i = 0; i < top.length; i++) {
        top[i] = absolute.getName(count - top.length + i).toString();
      }
      Folder folder = new Folder(top, top.length);
      if (!dir.equals(root.path())) {
        for (Path part : root.path().relativize(dir)) {
          folder = folder.child(part.toString());
        }
      }
      return folder;
    }

    /** The folder named {@code name} inside this one. */
    public Folder child(String name) {
      String[] longer = Arrays.copyOf(segments, segments.length + 1);
      longer[segments.length] = name;
      return new Folder(longer, rootSegments);
    }

    /** The segments from {@code from} on, then {@code fileName} without {@code suffix}. */
    private List<String> below(int from, String fileName, String suffix) {
      String[] out = Arrays.copyOfRange(segments, from, segments.length + 1);
      out[out.length - 1] = fileName.substring(0, fileName.length() - suffix.length());
      return Arrays.asList(out);
    }
  }

  private static List<String> strip(List<String> segments, String suffix) {
    List<String> out = new ArrayList<>(segments);
    String last = out.getLast();
    out.set(out.size() - 1, last.substring(0, last.length() - suffix.length()));
    return out;
  }
}
