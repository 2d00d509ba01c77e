package io.promptd.mcp.server.internal.method;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.ProtocolVersion;

/**
 * One feature of the server: the methods it adds to the {@link MethodTable}, and the capabilities
 * it declares.
 */
public interface Feature {
  /** Adds this feature's methods to {@code table}. */
  void register(MethodTable.Builder table);

  /**
   * Adds what this feature declares to the capabilities of {@code initialize} and
   * {@code server/discover} under {@code version}; nothing by default.
   */
  default void declare(JsonObject.Builder capabilities, ProtocolVersion version) {}
}
