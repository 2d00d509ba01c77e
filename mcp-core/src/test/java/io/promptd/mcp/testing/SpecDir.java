package io.promptd.mcp.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the official MCP schemas (one folder per protocol version, each with a
 * {@code schema.json}): the project's pinned copy in {@code third_party/mcp-spec}, whose
 * {@code SHA256SUMS} {@code SpecChecksumsTest} verifies.
 */
public final class SpecDir {
  /** The system property surefire sets to the spec folder. */
  public static final String PROPERTY = "mcp.spec.dir";

  private SpecDir() {}

  /**
   * The spec folder: the {@value #PROPERTY} system property when set, else
   * {@code third_party/mcp-spec} in the repository root (the topmost folder above the working
   * directory that holds {@code mvnw}).
   */
  public static Path path() {
    String configured = System.getProperty(PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return requireDir(Path.of(configured));
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException(
          "cannot find the MCP spec: set -D" + PROPERTY + " or run inside the promptd checkout");
    }
    // In a checkout of several modules the root is the topmost folder holding mvnw.
    while (dir.getParent() != null && Files.exists(dir.getParent().resolve("mvnw"))) {
      dir = dir.getParent();
    }
    return requireDir(dir.resolve("third_party/mcp-spec"));
  }

  private static Path requireDir(Path p) {
    if (!Files.isDirectory(p)) {
      throw new IllegalStateException(
          "MCP spec folder " + p + " does not exist (set -D" + PROPERTY + ")");
    }
    return p;
  }
}
