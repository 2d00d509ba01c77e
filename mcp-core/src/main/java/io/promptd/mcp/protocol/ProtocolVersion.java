package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The MCP protocol revisions promptd speaks. Legacy revisions open a session with
 * {@code initialize}; the modern revision carries version and capabilities on every request.
 */
@Stability(Stability.Tier.STABLE)
public enum ProtocolVersion {
  /** The first public revision. */
  V2024_11_05("2024-11-05"),
  /** Adds audio content, annotations, completions capability and JSON-RPC batches. */
  V2025_03_26("2025-03-26"),
  /**
   * Adds titles, resource links, {@code _meta} on content, {@code lastModified}; removes batches.
   */
  V2025_06_18("2025-06-18"),
  /** Adds icons. */
  V2025_11_25("2025-11-25"),
  /**
   * Stateless: per-request {@code _meta}, {@code server/discover}, {@code subscriptions/listen}.
   */
  V2026_07_28("2026-07-28");

  /**
   * The newest legacy revision: the answer to an {@code initialize} that asks for one we do not
   * know.
   */
  public static final ProtocolVersion LATEST_LEGACY = V2025_11_25;
  /**
   * The newest stateless revision: what a modern client asks for and a modern result is encoded in.
   */
  public static final ProtocolVersion LATEST_MODERN = V2026_07_28;

  private final String id;

  ProtocolVersion(String id) {
    this.id = id;
  }

  /** The version as it appears on the wire, e.g. {@code "2025-06-18"}. */
  public String id() {
    return id;
  }

  /** Looks up a wire version string. */
  public static Optional<ProtocolVersion> of(String id) {
    for (ProtocolVersion v : values()) {
      if (v.id.equals(id)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  /** Every supported version, newest first, as the wire strings. */
  public static List<String> supportedIds() {
    return Arrays.stream(values())
        .map(ProtocolVersion::id)
        .sorted((a, b) -> b.compareTo(a))
        .toList();
  }

  /** Whether this revision is stateless (per-request {@code _meta}) rather than session-based. */
  public boolean isModern() {
    return atLeast(V2026_07_28);
  }

  /** Whether this revision is at least {@code other}. */
  public boolean atLeast(ProtocolVersion other) {
    return compareTo(other) >= 0;
  }

  /** Whether JSON-RPC batches are allowed: only 2025-03-26 defines them. */
  public boolean allowsBatches() {
    return this == V2025_03_26;
  }
}
