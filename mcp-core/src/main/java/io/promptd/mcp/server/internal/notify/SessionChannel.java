package io.promptd.mcp.server.internal.notify;

import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.spi.Caller;

/**
 * Where the {@link Broadcaster} delivers a legacy session's notifications: the channel of one
 * initialized session, as much of it as notifications need, so that the broadcaster holds channels
 * rather than sessions.
 */
public interface SessionChannel {
  /** Who sent the channel's latest request: its notifications are for what that caller may see. */
  Caller caller();

  /** Whether a log message of {@code level} is wanted ({@code logging/setLevel}). */
  boolean admits(LoggingLevel level);

  /** Sends {@code notification} to the client, unless the channel is closed. */
  void notifyClient(Notification notification);
}
