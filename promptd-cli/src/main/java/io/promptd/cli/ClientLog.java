package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.server.McpServer;

/**
 * Forwards the prompt library's log records (a file that failed to parse, a reload) to connected
 * clients as {@code notifications/message}, so a user sees in their MCP client why a prompt is
 * missing. Each session's {@code logging/setLevel} filters them.
 */
final class ClientLog implements AutoCloseable {
  private final Runnable stop;

  private ClientLog(Runnable stop) {
    this.stop = stop;
  }

  /**
   * Starts forwarding records of the {@code io.promptd.library} loggers to {@code server}'s
   * clients.
   */
  static ClientLog install(McpServer server) {
    return new ClientLog(StderrLogs.forward(
        "io.promptd.library",
        (level, message) -> server.log(level(level), "promptd.library", Json.of(message))));
  }

  private static LoggingLevel level(System.Logger.Level level) {
    return switch (level) {
      case ERROR -> LoggingLevel.ERROR;
      case WARNING -> LoggingLevel.WARNING;
      case DEBUG, TRACE, ALL -> LoggingLevel.DEBUG;
      case INFO, OFF -> LoggingLevel.INFO;
    };
  }

  @Override
  public void close() {
    stop.run();
  }
}
