package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.LogMessage;
import io.promptd.mcp.server.internal.state.CallSession;
import io.promptd.mcp.server.internal.state.LegacyState;
import io.promptd.mcp.server.internal.state.ServerContext;
import org.jspecify.annotations.Nullable;

/**
 * What a session is told once, before its first prompt listing: the log messages that stand
 * ({@code McpServer.Builder.standingLog}: a file with an error, which is not served), so a client
 * that connected after they were logged hears them too.
 */
final class StandingLog {
  private StandingLog() {}

  /**
   * Sends {@code session} the standing messages its log level admits, on its own channel, the first
   * time only; nothing for a request without a legacy session.
   */
  static void tell(@Nullable CallSession session, ServerContext context) {
    LegacyState state = session == null ? null : session.legacy();
    if (session == null || state == null || !state.toldStandingLog.compareAndSet(false, true)) {
      return;
    }
    for (LogMessage m : context.standingLog.get()) {
      if (m.level().compareTo(state.logLevel) >= 0) {
        session.notifyClient(new Notification(
            Methods.NOTIFICATION_MESSAGE,
            JsonObject.builder()
                .put("level", m.level().id())
                .put("logger", m.logger())
                .put("data", m.data())
                .build()));
      }
    }
  }
}
