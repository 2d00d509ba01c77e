package io.promptd.mcp.client;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Implementation;
import org.jspecify.annotations.Nullable;

/**
 * What era detection learned about the server.
 *
 * @param modern whether the server speaks the modern era
 * @param version the protocol version in use
 * @param serverInfo the server's identity, or null
 * @param capabilities the server's capabilities
 */
record ServerIdentity(
    boolean modern, String version, @Nullable Implementation serverInfo, JsonObject capabilities) {
  /** Before detection: requests are shaped as modern ones, which is what the probe needs. */
  static final ServerIdentity PROBING =
      new ServerIdentity(true, McpClient.MODERN_VERSION, null, JsonObject.EMPTY);
}
