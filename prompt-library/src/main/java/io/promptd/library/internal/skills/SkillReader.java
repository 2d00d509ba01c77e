package io.promptd.library.internal.skills;

import io.promptd.library.Diagnostic;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.text.MediaTypes;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one skill folder whole: every file's bytes (for its digest and size), its {@code SKILL.md}
 * checked by {@link SkillFrontMatter}. A folder below it that holds its own {@code SKILL.md} is
 * another skill: its files are left out. Over {@link #MAX_FILES} files or {@link #MAX_BYTES} bytes
 * the skill is an error, not a truncated manifest: a manifest must list every file.
 */
public final class SkillReader {
  public static final String SKILL_MD = FileRole.SKILL_MD;
  public static final int MAX_FILES = 512;
  static final long MAX_BYTES = 16L * 1024 * 1024;

  /**
   * One read of a skill folder.
   *
   * @param skill the skill, or null when it has errors
   * @param problems its problems
   * @param files the bytes of its files by path in the skill, as read for the manifest; empty when
   *     it has errors
   */
  public record Result(
      @Nullable SkillFolder skill, List<Diagnostic> problems, Map<String, byte[]> files) {
    public Result(@Nullable SkillFolder skill, List<Diagnostic> problems) {
      this(skill, problems, Map.of());
    }
  }

  private SkillReader() {}

  /**
   * The skill path of the folder {@code dir} under {@code root}: below {@code .claude/skills} for a
   * project's own.
   */
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
  public static Result read(FileSource source, Root root, Path dir) {
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
      return new Result(null, List.of(tooMany(skillMd, name, files.size())));
    }
    long total = 0;
    for (Path f : files) {
      Stamp stamp = source.stamp(f);
      total += stamp == null ? 0 : stamp.size();
    }
    if (total > MAX_BYTES) {
      return new Result(null, List.of(tooBig(skillMd, name)));
    }
    SequencedMap<String, byte[]> contents = new LinkedHashMap<>();
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
      contents.put(
          dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/"), data);
    }
    return assemble(skillMd, path, dirName(dir), contents, problems);
  }

  /**
   * The skill at {@code path} made of {@code files}, checked as a skill folder is: at most
   * {@link #MAX_FILES} files of {@link #MAX_BYTES} bytes in all, a {@code SKILL.md} whose front
   * matter {@link SkillFrontMatter} accepts.
   *
   * @param skillMd where its {@code SKILL.md} is (or is said to be), for the diagnostics and
   *     {@link SkillFolder#file()}
   * @param folder the name of its folder, which its {@code name} must equal
   * @param files each file's bytes by its path in the skill ({@code /} separators),
   *     {@code SKILL.md} first
   * @param problems problems found so far; the skill is null when any is an error
   */
  static Result assemble(
      Path skillMd,
      String path,
      String folder,
      SequencedMap<String, byte[]> files,
      List<Diagnostic> problems) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    if (files.size() > MAX_FILES) {
      return new Result(null, List.of(tooMany(skillMd, name, files.size())));
    }
    if (files.values().stream().mapToLong(b -> b.length).sum() > MAX_BYTES) {
      return new Result(null, List.of(tooBig(skillMd, name)));
    }
    List<SkillFile> manifest = new ArrayList<>();
    SkillFrontMatter.Parsed parsed = null;
    for (var e : files.entrySet()) {
      String relative = e.getKey();
      byte[] data = e.getValue();
      manifest.add(new SkillFile(relative, data.length, digest(data), MediaTypes.guess(relative)));
      if (relative.equals(SKILL_MD)) {
        try {
          parsed = SkillFrontMatter.read(skillMd, SafeFiles.decodeUtf8(data), folder, problems);
        } catch (ParseException ex) {
          problems.add(Diagnostic.error(skillMd, ex.line(), ex.getMessage()));
        }
      }
    }
    if (parsed == null || problems.stream().anyMatch(Diagnostic::isError)) {
      return new Result(null, problems);
    }
    SkillFolder skill = new SkillFolder(
        skillMd,
        path,
        parsed.name(),
        parsed.description(),
        parsed.text(),
        parsed.json(),
        parsed.body(),
        manifest,
        Set.of());
    return new Result(skill, problems, files);
  }

  private static Diagnostic tooMany(Path skillMd, String name, int count) {
    return Diagnostic.error(
        skillMd,
        1,
        "skill '" + name + "' holds " + count + " files, over the limit of " + MAX_FILES);
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

  public static boolean isSkillMd(Path file) {
    return FileRole.isSkillMd(file);
  }

  private static String dirName(Path dir) {
    Path name = dir.getFileName();
    return name == null ? "" : name.toString();
  }

  static String digest(byte[] data) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
