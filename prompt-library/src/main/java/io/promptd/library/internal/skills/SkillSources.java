package io.promptd.library.internal.skills;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FolderSource;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Where the skills of {@link io.promptd.library.Skills} come from: a folder read once, or files
 * given in code. Both are checked by {@link SkillReader} as a library's skill folders are; a
 * problem is an {@link IllegalArgumentException} that says which skill and what is wrong, since a
 * server author's skills are not reloaded until fixed as a library's are.
 */
public final class SkillSources {
  private SkillSources() {}

  /**
   * The skills of {@code folder}: the one skill it is when it holds a {@code SKILL.md} (its path is
   * the folder's name), else every skill folder under it (their paths relative to it), each read
   * whole.
   *
   * @throws IOException when the folder cannot be listed
   * @throws IllegalArgumentException when a skill has an error (every one is said), or there is
   *     none
   */
  public static List<SkillReader.Result> folder(Path folder) throws IOException {
    Path dir = folder.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new IOException("Skills.fromFolder: " + folder + " is not a folder");
    }
    Path parent = dir.getParent();
    boolean single = Files.exists(dir.resolve(SkillReader.SKILL_MD));
    Path top = dir;
    if (single) {
      if (parent == null) {
        throw new IllegalArgumentException("Skills.fromFolder: a SKILL.md at " + dir
            + " has no folder name to be its skill's path");
      }
      top = parent;
    }
    Root root = Root.open(top, 0);
    FolderSource source = new FolderSource(List.of(root), LibraryOptions.defaults());
    List<Path> dirs = new ArrayList<>();
    source.list(root, dir, found -> {
      Path skillDir = found.file().getParent();
      if (found.role() == FileRole.SKILL && skillDir != null && !skillDir.equals(root.path())) {
        dirs.add(skillDir);
      }
    });
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException(
          "Skills.fromFolder: no SKILL.md in " + folder + " nor in a folder under it");
    }
    List<SkillReader.Result> read = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (Path d : dirs) {
      SkillReader.Result r = SkillReader.read(source, root, d);
      if (r.skill() == null) {
        refused.add(refused(SkillReader.path(root, d), r.problems()).getMessage());
      }
      read.add(r);
    }
    if (!refused.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", refused));
    }
    return read;
  }

  /**
   * The skill at {@code path} made of {@code skillMd} and {@code files} (path in the skill to
   * bytes).
   *
   * @throws IllegalArgumentException when a path is not allowed or the skill has an error
   */
  public static SkillReader.Result code(String path, byte[] skillMd, Map<String, byte[]> files) {
    checkPath(path, "skill '" + path + "': its path");
    SequencedMap<String, byte[]> all = new LinkedHashMap<>();
    all.put(SkillReader.SKILL_MD, skillMd);
    new TreeMap<>(files).forEach(all::put);
    String name = path.substring(path.lastIndexOf('/') + 1);
    // The file names the diagnostics: ops/review/SKILL.md, as if it were a folder.
    Path file = Path.of(path, SkillReader.SKILL_MD);
    return SkillReader.assemble(file, path, name, all, new ArrayList<>());
  }

  /**
   * Checks a path given in code: {@code /}-separated segments, none empty, {@code .} or {@code ..}.
   */
  public static void checkPath(String path, String what) {
    String problem = null;
    if (path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
      problem = "must be relative, neither empty nor starting or ending with '/'";
    } else if (path.contains("\\")) {
      problem = "must use '/' between folders, not '\\'";
    } else if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '?' || c == '#')) {
      problem = "must not hold control characters, '?' or '#'";
    } else {
      for (String segment : path.split("/", -1)) {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
          problem = "must not hold an empty, '.' or '..' segment";
          break;
        }
      }
    }
    if (problem != null) {
      throw new IllegalArgumentException("Skills: " + what + " '" + path + "' " + problem);
    }
  }

  /** The error of a skill that did not read, with every error it has, file by file. */
  public static IllegalArgumentException refused(String path, List<Diagnostic> problems) {
    StringBuilder b = new StringBuilder("Skills: skill '").append(path).append("' is refused:");
    problems.stream()
        .filter(Diagnostic::isError)
        .sorted(Problems.ORDER)
        .forEach(d -> b.append("\n  ").append(d.format()));
    return new IllegalArgumentException(b.toString());
  }
}
