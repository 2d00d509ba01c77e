package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One skill entry of the Skills extension ({@code io.modelcontextprotocol/skills}), the same in
 * {@code skills/list} and {@code skills/get}.
 *
 * @param uri the resource URI of the skill's {@code SKILL.md}; its last path segment before
 *     {@code /SKILL.md} is the skill's name
 * @param frontmatter the {@code SKILL.md} front matter as written, as a JSON object; holds string
 *     {@code name} and {@code description}
 * @param resources every file of the skill, its {@code SKILL.md} among them; null when the content
 *     is generated and has no stable digests (sent as {@code "dynamic"})
 */
@Stability(Stability.Tier.STABLE)
public record Skill(
    String uri, JsonObject frontmatter, @Nullable List<SkillResource> resources) {
  /** Checks the fields and copies the list. */
  public Skill {
    requireNonNull(uri, "uri");
    requireNonNull(frontmatter, "frontmatter");
    if (!uri.endsWith("/SKILL.md")) {
      throw new IllegalArgumentException("Skill " + uri + ": uri must name its SKILL.md");
    }
    for (String field : List.of("name", "description")) {
      if (!(frontmatter.get(field) instanceof JsonString)) {
        throw new IllegalArgumentException(
            "Skill " + uri + ": frontmatter must hold a string \"" + field + "\"");
      }
    }
    if (resources != null) {
      resources = List.copyOf(resources);
      if (resources.stream().noneMatch(r -> r.uri().equals(uri))) {
        throw new IllegalArgumentException("Skill " + uri + ": resources must list its SKILL.md");
      }
    }
  }
}
