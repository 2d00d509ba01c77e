package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.protocol.ProtocolVersion;
import org.jspecify.annotations.Nullable;

/** The HTTP names of the era-related headers, and the check a legacy session's requests pass. */
public final class Eras {
  public static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
  public static final String SESSION_HEADER = "Mcp-Session-Id";
  public static final String METHOD_HEADER = "Mcp-Method";
  public static final String NAME_HEADER = "Mcp-Name";

  private Eras() {}

  /**
   * Whether a legacy request's {@code MCP-Protocol-Version} header is absent or a legacy version we
   * speak.
   */
  public static boolean legacyVersionOk(@Nullable String versionHeader) {
    return versionHeader == null
        || ProtocolVersion.of(versionHeader.trim()).filter(v -> !v.isModern()).isPresent();
  }
}
