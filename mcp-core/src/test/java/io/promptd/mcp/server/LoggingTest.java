package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code notifications/message}: the server's log messages reach legacy sessions at the level they
 * asked for.
 */
class LoggingTest {
  private final McpServer server = McpServer.builder().build();

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void messagesBelowTheSessionsLevelAreNotSent() throws Exception {
    Recorder out = new Recorder();
    ServerSession session = server.openSession(out);
    session.handle(Wire.initialize("2025-06-18"), new Recorder());
    Recorder answer = new Recorder();
    assertThat(String.valueOf(session.handle(
            Wire.request(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"warning\"}}"),
            answer)))
        .contains("result");
    server.log(LoggingLevel.INFO, "library", Json.of("reloaded 3 files"));
    server.log(
        LoggingLevel.ERROR, "library", Json.of("review.prompt.md:4: error: bad front matter"));
    String message = out.next();
    assertThat(message)
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
                + "{\"level\":\"error\",\"logger\":\"library\",\"data\":\"review.prompt.md:4: error: bad front matter\"}}");
    SchemaHarness.of(ProtocolVersion.V2025_06_18).assertConforms(message, null);
    server.log(LoggingLevel.DEBUG, null, Json.of("quiet"));
    server.log(LoggingLevel.WARNING, null, Json.of("loud"));
    assertThat(out.next()).contains("\"level\":\"warning\"").doesNotContain("logger");
    assertThat(out.all()).hasSize(2);
  }

  @Test
  void anUnknownLevelIsInvalidParams() {
    ServerSession session = server.openSession(new Recorder());
    session.handle(Wire.initialize("2025-06-18"), new Recorder());
    assertThat(String.valueOf(session.handle(
            Wire.request(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}"),
            new Recorder())))
        .contains("-32602")
        .contains("debug, info, notice, warning, error, critical, alert, emergency");
  }

  @Test
  void whatStandsIsToldToEachLegacySessionOnceBeforeItsFirstPromptList() throws Exception {
    List<LogMessage> standing = new CopyOnWriteArrayList<>(List.of(new LogMessage(
        LoggingLevel.ERROR,
        "promptd.library",
        Json.of("haiku.prompt.md:3: error: {{subjet}} is not a declared argument"))));
    try (McpServer s = McpServer.builder().standingLog(() -> standing).build()) {
      Recorder out = new Recorder();
      ServerSession session = s.openSession(out);
      session.handle(Wire.initialize("2025-06-18"), new Recorder());
      assertThat(out.all()).isEmpty();
      assertThat(String.valueOf(session.handle(list(2), new Recorder()))).contains("prompts=");
      String message = out.next();
      assertThat(message)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
              + "{\"level\":\"error\",\"logger\":\"promptd.library\",\"data\":"
              + "\"haiku.prompt.md:3: error: {{subjet}} is not a declared argument\"}}");
      SchemaHarness.of(ProtocolVersion.V2025_06_18).assertConforms(message, null);
      session.handle(list(3), new Recorder());
      assertThat(out.all()).hasSize(1);

      // A session that asked for critical messages only is not told an error.
      Recorder quiet = new Recorder();
      ServerSession critical = s.openSession(quiet);
      critical.handle(Wire.initialize("2025-06-18"), new Recorder());
      critical.handle(
          Wire.request(
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"critical\"}}"),
          new Recorder());
      critical.handle(list(3), new Recorder());
      assertThat(quiet.all()).isEmpty();

      // Once the file is fixed nothing stands: a new session hears nothing.
      standing.clear();
      Recorder later = new Recorder();
      ServerSession fixed = s.openSession(later);
      fixed.handle(Wire.initialize("2025-06-18"), new Recorder());
      fixed.handle(list(2), new Recorder());
      assertThat(later.all()).isEmpty();
    }
  }

  private static Request list(int id) {
    return Wire.request("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"prompts/list\"}");
  }
}
