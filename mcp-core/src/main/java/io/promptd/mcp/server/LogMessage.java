package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.protocol.LoggingLevel;
import org.jspecify.annotations.Nullable;

/**
 * One log message for clients, as {@code notifications/message} carries it.
 *
 * @param level its severity
 * @param logger the name of the part of the server that logs, or null
 * @param data the message: a string or any JSON value
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record LogMessage(LoggingLevel level, @Nullable String logger, Json data) {
  /** Checks the fields. */
  public LogMessage {
    requireNonNull(level, "level");
    requireNonNull(data, "data");
  }
}
