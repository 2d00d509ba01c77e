package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.ProtocolVersion;

/** {@link Implementation} on the wire, as the server names itself in {@code serverInfo}. */
public final class ImplementationWire {
  private ImplementationWire() {}

  /** The implementation as {@code version} defines it. */
  public static JsonObject encode(Implementation impl, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("name", impl.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", impl.title());
    }
    return b.put("version", impl.version()).build();
  }
}
