package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.server.McpServer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Forwards the prompt library's log records (a file that failed to parse, a reload) to connected clients as
 * {@code notifications/message}, so a user sees in their MCP client why a prompt is missing. Each session's {@code
 * logging/setLevel} filters them.
 */
final class ClientLog extends Handler implements AutoCloseable {
  private final Logger source;
  private final McpServer server;
  private final SimpleFormatter formatter = new SimpleFormatter();

  private ClientLog(Logger source, McpServer server) {
    this.source = source;
    this.server = server;
    setLevel(Level.INFO);
  }

  /** Starts forwarding records of the {@code io.promptd.library} loggers to {@code server}'s clients. */
  static ClientLog install(McpServer server) {
    ClientLog handler = new ClientLog(Logger.getLogger("io.promptd.library"), server);
    handler.source.addHandler(handler);
    return handler;
  }

  @Override
  public void publish(LogRecord record) {
    if (isLoggable(record)) {
      server.log(level(record.getLevel()), "promptd.library", Json.of(formatter.formatMessage(record)));
    }
  }

  private static LoggingLevel level(Level level) {
    if (level.intValue() >= Level.SEVERE.intValue()) {
      return LoggingLevel.ERROR;
    }
    return level.intValue() >= Level.WARNING.intValue() ? LoggingLevel.WARNING : LoggingLevel.INFO;
  }

  @Override
  public void flush() {
    // nothing is buffered
  }

  @Override
  public void close() {
    source.removeHandler(this);
  }
}
