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
 *   <li>{@link #CODEX}: any {@code *.md} under a {@code .codex/prompts/} folder;
 *   <li>{@link #CURSOR}: any {@code *.md} under a {@code .cursor/commands/} folder;
 *   <li>{@link #GEMINI}: any {@code *.toml} under a {@code .gemini/commands/} folder;
 *   <li>{@link #NATIVE}: any other {@code *.prompt.md};
 *   <li>{@link #DOTPROMPT}: any {@code *.prompt} whose name does not start with {@code _} (a Dotprompt partial);
 *   <li>{@link #PROMPTY}: any {@code *.prompty}.
 * </ul>
 *
 * <p>A root may be such a folder itself ({@code promptd serve .claude/commands}) or contain one. Where format folders
 * nest, the one nearest the top decides.
 */
public enum FileKind {
  /** {@code NAME.prompt.md}: YAML front matter and a Mustache body. */
  NATIVE,
  /** A Claude Code command: {@code $ARGUMENTS}, {@code $1}…{@code $9}. */
  CLAUDE,
  /** A VS Code prompt file: {@code ${input:name}}. */
  VSCODE,
  /** A Codex custom prompt: {@code $1}…{@code $9}, {@code $ARGUMENTS}, named {@code $NAME} placeholders. */
  CODEX,
  /** A Cursor command: plain Markdown; what follows the command is appended. */
  CURSOR,
  /** A Gemini CLI custom command: TOML with {@code prompt} and {@code description}; {@code {{args}}}. */
  GEMINI,
  /** A Dotprompt file: YAML front matter with a Picoschema input, a Handlebars body. */
  DOTPROMPT,
  /** A Prompty file: YAML front matter with inputs, a Jinja body with role lines. */
  PROMPTY;

  /** Whether a lower-cased file name may be a prompt file of some format. */
  private static boolean candidate(String lower) {
    return !lower.startsWith(".") && (lower.endsWith(".md") || lower.endsWith(".toml") || lower.endsWith(".prompt")
        || lower.endsWith(".prompty"));
  }

  /** A file outside any format folder: native, Dotprompt or Prompty by its extension, else null. */
  private static @Nullable FileKind anywhere(String lower) {
    if (lower.endsWith(".prompt.md")) {
      return NATIVE;
    }
    if (lower.endsWith(".prompt") && !lower.startsWith("_")) {
      return DOTPROMPT;
    }
    return lower.endsWith(".prompty") ? PROMPTY : null;
  }

  private static String suffixOf(FileKind kind) {
    return switch (kind) {
      case DOTPROMPT -> ".prompt";
      case PROMPTY -> ".prompty";
      default -> ".prompt.md";
    };
  }

  /** A format's folder pair ({@code .claude/commands}) and the file names it holds. */
  private record Home(String dir, String sub, FileKind kind, String suffix) {
    /** The suffix to strip from {@code lower} for its name, or null when this format does not hold that file. */
    @Nullable String strip(String lower) {
      if (!lower.endsWith(suffix)) {
        return null;
      }
      // A Markdown command named x.prompt.md is command x, as a native file would be.
      return suffix.equals(".md") && lower.endsWith(".prompt.md") ? ".prompt.md" : suffix;
    }
  }

  private static final List<Home> HOMES = List.of(
      new Home(".claude", "commands", FileKind.CLAUDE, ".md"),
      new Home(".github", "prompts", FileKind.VSCODE, ".prompt.md"),
      new Home(".codex", "prompts", FileKind.CODEX, ".md"),
      new Home(".cursor", "commands", FileKind.CURSOR, ".md"),
      new Home(".gemini", "commands", FileKind.GEMINI, ".toml"));

  /** Whether {@code sub} inside the hidden folder {@code dir} is a format's folder (scanned although hidden). */
  public static boolean formatFolder(String dir, String sub) {
    return HOMES.stream().anyMatch(h -> h.dir.equals(dir) && h.sub.equals(sub));
  }

  /** Whether the hidden folder {@code dir} holds a format's folder. */
  public static boolean formatParent(String dir) {
    return HOMES.stream().anyMatch(h -> h.dir.equals(dir));
  }

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
    if (!candidate(fileName)) {
      return null;
    }
    for (int i = 0; i + 2 < full.size(); i++) {
      for (Home h : HOMES) {
        if (full.get(i).equals(h.dir) && full.get(i + 1).equals(h.sub)) {
          String suffix = h.strip(fileName);
          if (suffix != null) {
            return new Match(h.kind, strip(full.subList(i + 2, full.size()), suffix));
          }
        }
      }
    }
    FileKind kind = anywhere(fileName);
    return kind == null ? null : new Match(kind, strip(full.subList(rootSegments, full.size()), suffixOf(kind)));
  }

  /**
   * Classifies the file named {@code fileName} in {@code folder}; the same answer as {@link #classify(Root, Path)} for
   * that file, worked out from the name alone.
   */
  public static @Nullable Match classify(Folder folder, String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    if (!candidate(lower)) {
      return null;
    }
    // The format folder nearest the top wins, as in the segment-by-segment walk of classify(Root, Path).
    int best = -1;
    Home chosen = null;
    String suffix = null;
    for (int k = 0; k < HOMES.size(); k++) {
      int at = folder.homes[k];
      String s = at < 0 ? null : HOMES.get(k).strip(lower);
      if (s != null && (best < 0 || at < best)) {
        best = at;
        chosen = HOMES.get(k);
        suffix = s;
      }
    }
    if (chosen != null && suffix != null) {
      return new Match(chosen.kind, folder.below(best + 2, fileName, suffix));
    }
    FileKind kind = anywhere(lower);
    return kind == null ? null : new Match(kind, folder.below(folder.rootSegments, fileName, suffixOf(kind)));
  }

  /**
   * A folder as {@link #classify(Folder, String)} sees it, worked out once for all the files in it: a listing of
   * 100,000 files then makes no {@link Path} per segment of each file's path.
   */
  public static final class Folder {
    /** The root's last two folder names, then the folders from the root down to this one. */
    private final String[] segments;
    private final int rootSegments;
    /** Where each format's folder pair ({@link #HOMES}, in order) first starts in {@link #segments}, or -1. */
    private final int[] homes;

    private Folder(String[] segments, int rootSegments) {
      this.segments = segments;
      this.rootSegments = rootSegments;
      this.homes = new int[HOMES.size()];
      Arrays.fill(homes, -1);
      for (int i = segments.length - 2; i >= 0; i--) {
        for (int k = 0; k < HOMES.size(); k++) {
          if (segments[i].equals(HOMES.get(k).dir) && segments[i + 1].equals(HOMES.get(k).sub)) {
            homes[k] = i;
          }
        }
      }
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
