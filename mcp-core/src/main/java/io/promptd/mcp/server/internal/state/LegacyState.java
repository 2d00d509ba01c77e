package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/** What a legacy {@code initialize} established for its session. */
public final class LegacyState {
  public final ProtocolVersion version;
  public final JsonObject clientCapabilities;
  public final @Nullable Implementation clientInfo;
  /** The least severe log message the client wants; {@code logging/setLevel} changes it. */
  public volatile LoggingLevel logLevel = LoggingLevel.INFO;
  /** Whether the session was told what stands ({@code McpServer.Builder.standingLog}). */
  public final AtomicBoolean toldStandingLog = new AtomicBoolean();

  public LegacyState(
      ProtocolVersion version, JsonObject clientCapabilities, @Nullable Implementation clientInfo) {
    this.version = version;
    this.clientCapabilities = clientCapabilities;
    this.clientInfo = clientInfo;
  }
}
