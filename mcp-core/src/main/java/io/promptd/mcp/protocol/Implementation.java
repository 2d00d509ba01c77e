package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import org.jspecify.annotations.Nullable;

/**
 * The name and version of an MCP client or server.
 *
 * @param name the programmatic name
 * @param title a display name, or null
 * @param version the version
 */
@Stability(Stability.Tier.STABLE)
public record Implementation(String name, @Nullable String title, String version) {
  /** Checks the fields. */
  public Implementation {
    requireNonNull(name, "name");
    requireNonNull(version, "version");
  }

  /** A name and a version, without a display title. */
  public Implementation(String name, String version) {
    this(name, null, version);
  }
}
