package io.promptd.library;

import io.promptd.library.parse.MediaTypes;
import io.promptd.library.parse.ParseException;
import io.promptd.library.parse.Root;
import io.promptd.library.parse.SafeFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one skill folder whole: every file's bytes (for its digest and size), its {@code SKILL.md} checked by {@link
 * SkillFrontMatter}. A folder below it that holds its own {@code SKILL.md} is another skill: its files are left out.
 * Over {@link #MAX_FILES} files or {@link #MAX_BYTES} bytes the skill is an error, not a truncated manifest: a
 * manifest must list every file.
 */
final class SkillReader {
  static final String SKILL_MD = "SKILL.md";
  static final int MAX_FILES = 512;
  static final long MAX_BYTES = 16L * 1024 * 1024;

  /**
   * One read of a skill folder.
   *
   * @param skill the skill, or null when it has errors
   * @param problems its problems
   */
  record Result(@Nullable Skill skill, List<Diagnostic> problems) {}

  private SkillReader() {}

  /** The skill path of the folder {@code dir} under {@code root}: below {@code .claude/skills} for a project's own. */
  static String path(Root root, Path dir) {
    String relative = dir.equals(root.path()) ? "" : root.relative(dir);
    String home = ".claude/skills/";
    int at = relative.lastIndexOf("/" + home);
    if (at >= 0) {
      return relative.substring(at + home.length() + 1);
    }
    return relative.startsWith(home) ? relative.substring(home.length()) : relative;
  }

  /** Reads the skill in {@code dir}, whose {@code SKILL.md} exists, from {@code source}. */
  static Result read(FileSource source, Root root, Path dir) {
    Path skillMd = dir.resolve(SKILL_MD);
    List<Diagnostic> problems = new ArrayList<>();
    String path = path(root, dir);
    if (path.isEmpty()) {
      problems.add(Diagnostic.warning(
          skillMd, 1, "a SKILL.md at the root is not served: serve the folder above its skill"));
      return new Result(null, problems);
    }
    List<Path> files;
    try {
      files = files(source, root, dir);
    } catch (IOException e) {
      problems.add(
          Diagnostic.error(skillMd, 0, "cannot list the skill's folder: " + e.getMessage()));
      return new Result(null, problems);
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    if (files.size() > MAX_FILES) {
      problems.add(Diagnostic.error(
          skillMd,
          1,
          "skill '" + name + "' holds " + files.size() + " files, over the limit of " + MAX_FILES));
      return new Result(null, problems);
    }
    long total = 0;
    for (Path f : files) {
      Stamp stamp = source.stamp(f);
      total += stamp == null ? 0 : stamp.size();
    }
    if (total > MAX_BYTES) {
      return new Result(null, List.of(tooBig(skillMd, name)));
    }
    List<SkillFile> manifest = new ArrayList<>();
    SkillFrontMatter.Parsed parsed = null;
    long read = 0;
    for (Path f : files) {
      byte[] data;
      try {
        data = source.read(root, f, MAX_BYTES - read, 0, "skill file");
      } catch (ParseException e) {
        problems.add(Diagnostic.error(f, e.line(), e.getMessage()));
        continue;
      }
      read += data.length;
      String relative = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
      manifest.add(new SkillFile(relative, data.length, digest(data), MediaTypes.guess(relative)));
      if (f.equals(skillMd)) {
        try {
          parsed =
              SkillFrontMatter.read(skillMd, SafeFiles.decodeUtf8(data), dirName(dir), problems);
        } catch (ParseException e) {
          problems.add(Diagnostic.error(skillMd, e.line(), e.getMessage()));
        }
      }
    }
    if (parsed == null || problems.stream().anyMatch(Diagnostic::isError)) {
      return new Result(null, problems);
    }
    Skill skill = new Skill(
        skillMd,
        path,
        parsed.name(),
        parsed.description(),
        parsed.text(),
        parsed.json(),
        parsed.body(),
        manifest,
        Set.of());
    return new Result(skill, problems);
  }

  private static Diagnostic tooBig(Path skillMd, String name) {
    return Diagnostic.error(
        skillMd, 1, "skill '" + name + "' holds more than " + MAX_BYTES + " bytes, the limit");
  }

  /** The skill's files, {@code SKILL.md} first, then by path; none of a nested skill's. */
  private static List<Path> files(FileSource source, Root root, Path dir) throws IOException {
    List<Path> all = new ArrayList<>();
    source.listAll(root, dir, all::add);
    Set<Path> nested = new HashSet<>();
    for (Path f : all) {
      Path parent = f.getParent();
      if (parent != null && !parent.equals(dir) && isSkillMd(f)) {
        nested.add(parent);
      }
    }
    List<Path> out = new ArrayList<>();
    for (Path f : all) {
      if (nested.stream().noneMatch(f::startsWith)) {
        out.add(f);
      }
    }
    Path skillMd = dir.resolve(SKILL_MD);
    out.sort((a, b) ->
        a.equals(skillMd) ? -1 : b.equals(skillMd) ? 1 : a.toString().compareTo(b.toString()));
    return out;
  }

  static boolean isSkillMd(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().equals(SKILL_MD);
  }

  private static String dirName(Path dir) {
    Path name = dir.getFileName();
    return name == null ? "" : name.toString();
  }

  static String digest(byte[] data) {
    try {
      return "sha256:"
          + java.util.HexFormat.of()
              .formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
