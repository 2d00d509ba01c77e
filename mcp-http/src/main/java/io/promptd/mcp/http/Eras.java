package io.promptd.mcp.http;

import io.promptd.mcp.protocol.ProtocolVersion;
import org.jspecify.annotations.Nullable;

/** The HTTP names of the era-related headers, and the check a legacy session's requests pass. */
final class Eras {
  static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String METHOD_HEADER = "Mcp-Method";
  static final String NAME_HEADER = "Mcp-Name";

  private Eras() {}

  /** Whether a legacy request's {@code MCP-Protocol-Version} header is absent or a legacy version we speak. */
  static boolean legacyVersionOk(@Nullable String versionHeader) {
    return versionHeader == null
        || ProtocolVersion.of(versionHeader.trim()).filter(v -> !v.isModern()).isPresent();
  }
}
