package io.promptd.library.internal.skills;

import static java.util.Objects.requireNonNull;

/**
 * One file of a {@link SkillFolder}: what a manifest entry needs, taken from the bytes read when
 * the skill was loaded.
 *
 * @param path its path under the skill's folder, {@code /}-separated ({@code SKILL.md},
 *     {@code references/guide.md})
 * @param size its length in bytes
 * @param digest {@code sha256:} and the 64 lowercase hex digits of the SHA-256 of those bytes
 * @param mimeType the content type its name suggests ({@code application/octet-stream} when none
 *     does)
 */
public record SkillFile(String path, long size, String digest, String mimeType) {
  public SkillFile {
    requireNonNull(path, "path");
    requireNonNull(digest, "digest");
    requireNonNull(mimeType, "mimeType");
  }
}
