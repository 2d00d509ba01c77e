package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;

/**
 * One file of a {@link Skill}, as the Skills extension ({@code io.modelcontextprotocol/skills})
 * lists it: enough for a client to check the bytes it later reads with {@code resources/read}.
 *
 * @param uri the file's resource URI ({@code skill://<skill-path>/<file-path>})
 * @param digest {@code sha256:} followed by the 64 lowercase hex digits of the SHA-256 of the
 *     file's bytes
 * @param size the length of those bytes
 */
@Stability(Stability.Tier.STABLE)
public record SkillResource(String uri, String digest, long size) {
  /** Checks the fields. */
  public SkillResource {
    requireNonNull(uri, "uri");
    requireNonNull(digest, "digest");
    if (!digest.matches("sha256:[0-9a-f]{64}")) {
      throw new IllegalArgumentException("SkillResource " + uri
          + ": digest must be sha256: and 64 lowercase hex digits, not " + digest);
    }
    if (size < 0) {
      throw new IllegalArgumentException("SkillResource " + uri + ": size must not be negative");
    }
  }
}
