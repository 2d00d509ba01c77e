package io.promptd.library.parse.format;

import io.promptd.library.parse.format.PromptFormat.Home;
import io.promptd.library.parse.text.Root;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which {@link PromptFormat} reads a file, told by where the file sits and its name, in the order
 * of {@link PromptFormats#ALL}: a file under a format's folder pair (such as
 * {@code .claude/commands/}) belongs to that format when it claims the file's name; any other file
 * to the first format without a folder pair that claims it.
 *
 * <p>A root may be such a folder itself ({@code promptd serve .claude/commands}) or contain one.
 * Where format folders nest, the one nearest the top decides.
 */
public final class FileKind {
  /** The formats read inside their folder pairs, in precedence order. */
  private static final List<PromptFormat> HOMES =
      PromptFormats.ALL.stream().filter(f -> f.home() != null).toList();
  /** The formats read anywhere else, in precedence order. */
  private static final List<PromptFormat> ANYWHERE =
      PromptFormats.ALL.stream().filter(f -> f.home() == null).toList();

  private FileKind() {}

  /**
   * Whether a lower-cased file name may be a prompt file of some format: none reads hidden files.
   */
  private static boolean candidate(String lower) {
    return !lower.startsWith(".");
  }

  /** The first format without a folder pair that claims {@code lower}, or null. */
  private static @Nullable PromptFormat anywhere(String lower) {
    for (PromptFormat format : ANYWHERE) {
      if (format.suffix(lower) != null) {
        return format;
      }
    }
    return null;
  }

  private static Home home(PromptFormat format) {
    return Objects.requireNonNull(format.home(), "home");
  }

  /**
   * Whether {@code sub} inside the hidden folder {@code dir} is a format's folder (scanned although
   * hidden).
   */
  public static boolean formatFolder(String dir, String sub) {
    return HOMES.stream()
        .anyMatch(f -> home(f).dir().equals(dir) && home(f).sub().equals(sub));
  }

  /** Whether the hidden folder {@code dir} holds a format's folder. */
  public static boolean formatParent(String dir) {
    return HOMES.stream().anyMatch(f -> home(f).dir().equals(dir));
  }

  /**
   * What a file is and the path its default name comes from.
   *
   * @param format the format that reads it
   * @param nameSegments the folders and file name (extension removed) below the format's folder or
   *     the root
   */
  public record Match(PromptFormat format, List<String> nameSegments) {
    /** Copies the segments. */
    public Match {
      Objects.requireNonNull(format, "format");
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
      for (PromptFormat format : HOMES) {
        Home h = home(format);
        if (full.get(i).equals(h.dir()) && full.get(i + 1).equals(h.sub())) {
          String suffix = format.suffix(fileName);
          if (suffix != null) {
            return new Match(format, strip(full.subList(i + 2, full.size()), suffix));
          }
        }
      }
    }
    PromptFormat format = anywhere(fileName);
    return format == null
        ? null
        : new Match(
            format, strip(full.subList(rootSegments, full.size()), suffixOf(format, fileName)));
  }

  /**
   * Classifies the file named {@code fileName} in {@code folder}; the same answer as
   * {@link #classify(Root, Path)} for that file, worked out from the name alone.
   */
  public static @Nullable Match classify(Folder folder, String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    if (!candidate(lower)) {
      return null;
    }
    // The format folder nearest the top wins, as in the segment-by-segment walk of classify(Root,
    // Path).
    int best = -1;
    PromptFormat chosen = null;
    String suffix = null;
    for (int k = 0; k < HOMES.size(); k++) {
      int at = folder.homes[k];
      String s = at < 0 ? null : HOMES.get(k).suffix(lower);
      if (s != null && (best < 0 || at < best)) {
        best = at;
        chosen = HOMES.get(k);
        suffix = s;
      }
    }
    if (chosen != null && suffix != null) {
      return new Match(chosen, folder.below(best + 2, fileName, suffix));
    }
    PromptFormat format = anywhere(lower);
    return format == null
        ? null
        : new Match(format, folder.below(folder.rootSegments, fileName, suffixOf(format, lower)));
  }

  private static String suffixOf(PromptFormat format, String lower) {
    return Objects.requireNonNull(format.suffix(lower), "suffix");
  }

  /**
   * A folder as {@link #classify(Folder, String)} sees it, worked out once for all the files in it:
   * a listing of 100,000 files then makes no {@link Path} per segment of each file's path.
   */
  public static final class Folder {
    /** The root's last two folder names, then the folders from the root down to this one. */
    private final String[] segments;

    private final int rootSegments;
    /**
     * Where each format's folder pair ({@link #HOMES}, in order) first starts in {@link #segments},
     * or -1.
     */
    private final int[] homes;

    private Folder(String[] segments, int rootSegments) {
      this.segments = segments;
      this.rootSegments = rootSegments;
      this.homes = new int[HOMES.size()];
      Arrays.fill(homes, -1);
      for (int i = segments.length - 2; i >= 0; i--) {
        for (int k = 0; k < HOMES.size(); k++) {
          Home h = home(HOMES.get(k));
          if (segments[i].equals(h.dir()) && segments[i + 1].equals(h.sub())) {
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
