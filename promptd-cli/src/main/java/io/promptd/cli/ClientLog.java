package io.promptd.cli;

import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.server.LogMessage;
import io.promptd.mcp.server.McpServer;
import java.util.List;

/**
 * Forwards the prompt library's log records (a file that failed to parse, a reload) to connected
 * clients as {@code notifications/message}, so a user sees in their MCP client why a prompt is
 * missing. Each session's {@code logging/setLevel} filters them.
 */
final class ClientLog implements AutoCloseable {
  private static final String LOGGER = "promptd.library";

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
        (level, message) -> server.log(level(level), LOGGER, Json.of(message))));
  }

  /**
   * What a client that connects later is told before its first listing: the library's errors now
   * (files that are not served, each with its {@code file:line}), as they were logged.
   */
  static List<LogMessage> standing(Library library) {
    return library.diagnostics().stream()
        .filter(Diagnostic::isError)
        .map(d -> new LogMessage(
            LoggingLevel.ERROR, LOGGER, Json.of(StderrLogs.forClients(d.format(), null))))
        .toList();
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
