package io.promptd.library.internal.skills;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An Agent SkillFolder the library serves: a folder holding a {@code SKILL.md}, read whole when
 * loaded, so that what is served (front matter, body, manifest) is one consistent version even
 * while the files change.
 *
 * @param file its {@code SKILL.md}, as found under its root
 * @param path the skill path: its folder under the root ({@code ops/incident-review}), or under
 *     {@code .claude/skills} for a project's own skills; the last segment is {@code name}
 * @param name the front matter's {@code name}
 * @param description the front matter's {@code description}
 * @param frontMatterText the front matter as written, between the {@code ---} lines
 * @param frontMatter the front matter as JSON values (String, Long, Double, Boolean, null, List,
 *     Map), in the order written: what the Skills extension renders verbatim
 * @param body the text of {@code SKILL.md} after its front matter
 * @param files every file of the skill, {@code SKILL.md} first, then by path; a nested skill's
 *     files are not among them
 * @param scopes what a caller needs to see it: the nearest {@code _folder.yaml} default, else none
 */
public record SkillFolder(
    Path file,
    String path,
    String name,
    String description,
    String frontMatterText,
    Map<String, @Nullable Object> frontMatter,
    String body,
    List<SkillFile> files,
    Set<String> scopes) {
  public SkillFolder {
    requireNonNull(file, "file");
    requireNonNull(path, "path");
    requireNonNull(name, "name");
    requireNonNull(description, "description");
    requireNonNull(frontMatterText, "frontMatterText");
    requireNonNull(body, "body");
    // Map.copyOf rejects the nulls YAML may hold; an unmodifiable ordered copy keeps them.
    frontMatter = Collections.unmodifiableMap(new LinkedHashMap<>(frontMatter));
    files = List.copyOf(files);
    scopes = Set.copyOf(scopes);
  }

  /** This skill with {@code scopes} instead of its own. */
  public SkillFolder withScopes(Set<String> scopes) {
    return scopes.equals(this.scopes)
        ? this
        : new SkillFolder(
            file, path, name, description, frontMatterText, frontMatter, body, files, scopes);
  }
}
