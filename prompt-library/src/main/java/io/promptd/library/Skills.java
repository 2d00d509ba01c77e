package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.internal.skills.LibrarySkills;
import io.promptd.library.internal.skills.SkillFile;
import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.library.internal.skills.SkillReader;
import io.promptd.library.internal.skills.SkillSources;
import io.promptd.library.parse.text.ParseException;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.spi.Caller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Agent Skills for an MCP server without a prompt {@link Library}: read once from a folder, or
 * built from files in code, checked as a library checks its skill folders (the {@code SKILL.md}
 * front matter's {@code name}, equal to the last segment of the skill's path, and
 * {@code description}; at most 512 files and 16 MiB per skill). One registration serves both the
 * Skills extension ({@code skills/list}, {@code skills/get}) and the skills' files as resources
 * ({@code resources/list}, {@code resources/read} at {@code skill://<skill-path>/<file-path>}: text
 * for a text type that is UTF-8, else base64), beside any resources of the server's own:
 *
 * <pre>{@code
 * Skills skills = Skills.builder()
 *     .folder(Path.of("skills"))
 *     .skill("ops/review", "---\nname: review\ndescription: Reviews a change.\n---\nRead the diff first.\n")
 *     .file("ops/review", "checklist.md", "- tests pass\n")
 *     .build();
 * McpServer server = McpServer.builder().prompts(catalog).skills(skills).build();
 * }</pre>
 *
 * <p>The files' bytes are held in memory, so what {@code resources/read} answers is always what the
 * manifests' digests and sizes describe. Nothing is watched and {@code _folder.yaml} scopes are not
 * read: every caller sees every skill. A prompt folder's own skills, watched and scoped, are served
 * by its {@link Library} instead.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class Skills implements SkillProvider {
  private final LibrarySkills served;
  private final ResourceProvider files;

  private Skills(List<SkillFolder> skills, Map<Path, byte[]> bytes) {
    List<SkillFolder> fixed = List.copyOf(skills);
    this.served = new LibrarySkills(
        () -> fixed,
        (file, limit) -> {
          byte[] b = bytes.get(file);
          if (b == null) {
            throw new ParseException(0, "skill file " + file + " is not held");
          }
          return b;
        },
        file -> {}); // the bytes are held: they never change behind the entries
    this.files = new Files();
  }

  /**
   * The skills of {@code folder}: the one skill it is when it holds a {@code SKILL.md} (its path is
   * the folder's name), else every skill folder under it, at its path relative to {@code folder} (a
   * project's {@code .claude/skills/NAME} is at {@code NAME}). Every file of a skill folder is one
   * of its files; a folder holding its own {@code SKILL.md} is a skill of its own.
   *
   * @throws IOException when the folder cannot be read
   * @throws IllegalArgumentException when a skill has an error (each is said, at its file and
   *     line), or there is none
   */
  public static Skills fromFolder(Path folder) throws IOException {
    return builder().folder(folder).build();
  }

  /** Returns a builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The skills, sorted by path: one entry per skill, its manifest listing every file (a nested
   * skill's too).
   */
  @Override
  public List<Skill> skills() {
    return served.skills();
  }

  /** True: {@code resources/directory/read} lists a skill's folders. */
  @Override
  public boolean directoryRead() {
    return true;
  }

  @Override
  public Optional<List<Resource>> children(String uri, Caller caller) {
    return served.children(uri, caller);
  }

  /**
   * The skills' files as resources, sorted by URI; the server lists and reads them without further
   * setup.
   */
  @Override
  public ResourceProvider files() {
    return files;
  }

  /**
   * The skills' files as a {@link ResourceProvider}: unchanging, every file visible to every
   * caller.
   */
  private final class Files implements ResourceProvider {
    @Override
    public List<Resource> resources() {
      return served.resources();
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return served.read(uri);
    }
  }

  /**
   * Gathers skills from folders and from files given in code. Every skill path is unique across
   * both; a path is {@code /}-separated folders, the last being the skill's name.
   */
  public static final class Builder {
    private final List<SkillReader.Result> read = new ArrayList<>();
    private final Map<String, byte[]> skillMds = new LinkedHashMap<>();
    private final Map<String, Map<String, byte[]>> files = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds the skills of {@code folder}, read now, as {@link Skills#fromFolder(Path)} reads them.
     *
     * @throws IOException when the folder cannot be read
     * @throws IllegalArgumentException when a skill has an error, or there is none
     */
    public Builder folder(Path folder) throws IOException {
      read.addAll(SkillSources.folder(requireNonNull(folder, "folder")));
      return this;
    }

    /**
     * Adds the skill at {@code path} (such as {@code ops/review}) whose {@code SKILL.md} is
     * {@code skillMd}; its other files are added with {@link #file}. Checked when built.
     *
     * @throws IllegalArgumentException when the path is malformed or already has a skill
     */
    public Builder skill(String path, String skillMd) {
      requireNonNull(path, "path");
      requireNonNull(skillMd, "skillMd");
      SkillSources.checkPath(path, "skill path");
      if (skillMds.putIfAbsent(path, skillMd.getBytes(StandardCharsets.UTF_8)) != null) {
        throw new IllegalArgumentException("Skills: skill '" + path + "' is given twice");
      }
      return this;
    }

    /**
     * Adds a supporting file to the skill at {@code skillPath}, its text encoded as UTF-8.
     *
     * @param filePath the file's path in the skill, such as {@code references/guide.md}
     * @throws IllegalArgumentException when a path is malformed or the file is given twice
     */
    public Builder file(String skillPath, String filePath, String text) {
      return file(
          skillPath, filePath, requireNonNull(text, "text").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Adds a supporting file to the skill at {@code skillPath}, its bytes as given (copied).
     *
     * @param filePath the file's path in the skill, such as {@code assets/logo.png}
     * @throws IllegalArgumentException when a path is malformed or the file is given twice
     */
    public Builder file(String skillPath, String filePath, byte[] bytes) {
      requireNonNull(skillPath, "skillPath");
      requireNonNull(filePath, "filePath");
      requireNonNull(bytes, "bytes");
      String where = "skill '" + skillPath + "': file path";
      SkillSources.checkPath(filePath, where);
      String last = filePath.substring(filePath.lastIndexOf('/') + 1);
      if (last.equals(SkillReader.SKILL_MD)) {
        throw new IllegalArgumentException("Skills: skill '" + skillPath + "': " + filePath
            + (filePath.equals(SkillReader.SKILL_MD)
                ? " is given with skill(path, skillMd)"
                : " would be a nested skill: add it as skill '" + skillPath + "/"
                    + filePath.substring(0, filePath.length() - last.length() - 1) + "'"));
      }
      Map<String, byte[]> of = files.computeIfAbsent(skillPath, p -> new LinkedHashMap<>());
      if (of.putIfAbsent(filePath, bytes.clone()) != null) {
        throw new IllegalArgumentException(
            "Skills: skill '" + skillPath + "': file " + filePath + " is given twice");
      }
      return this;
    }

    /**
     * Checks the skills given in code and builds.
     *
     * @throws IllegalArgumentException when a skill has an error (which skill, and each error at
     *     its line), files were given for a path without a skill, or two skills have one path
     */
    public Skills build() {
      for (String path : files.keySet()) {
        if (!skillMds.containsKey(path)) {
          throw new IllegalArgumentException("Skills: files were given for skill '" + path
              + "', which has no SKILL.md: add it with skill(\"" + path + "\", text)");
        }
      }
      List<SkillReader.Result> all = new ArrayList<>(read);
      skillMds.forEach((path, md) -> {
        SkillReader.Result r = SkillSources.code(path, md, files.getOrDefault(path, Map.of()));
        if (r.skill() == null) {
          throw SkillSources.refused(path, r.problems());
        }
        all.add(r);
      });
      Map<String, SkillFolder> byPath = new HashMap<>();
      Map<Path, byte[]> bytes = new HashMap<>();
      for (SkillReader.Result r : all) {
        SkillFolder skill = requireNonNull(r.skill());
        SkillFolder before = byPath.putIfAbsent(skill.path(), skill);
        if (before != null) {
          throw new IllegalArgumentException("Skills: two skills have the path '" + skill.path()
              + "': " + before.file() + " and " + skill.file());
        }
        r.files().forEach((file, b) -> bytes.put(skill.file().resolveSibling(file), b));
      }
      Map<String, String> owners = new HashMap<>();
      for (SkillFolder skill : byPath.values()) {
        for (SkillFile f : skill.files()) {
          String uri = LibrarySkills.uri(skill.path(), f.path());
          String other = owners.putIfAbsent(uri, skill.path());
          if (other != null) {
            throw new IllegalArgumentException("Skills: " + uri + " is a file of both skill '"
                + other + "' and skill '" + skill.path() + "'");
          }
        }
      }
      List<SkillFolder> skills = new ArrayList<>(byPath.values());
      skills.sort(Comparator.comparing(SkillFolder::path));
      return new Skills(skills, Map.copyOf(bytes));
    }
  }
}
