package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 2026-07-28 logging, error handling: a request whose
 * {@code _meta["io.modelcontextprotocol/logLevel"]} names no log level is rejected with -32602, on
 * a session's channel (stdio) and on the stateless endpoint (HTTP) alike; a valid level is
 * accepted.
 */
class LogLevelMetaTest {
  private static final SchemaHarness MODERN = SchemaHarness.of(ProtocolVersion.V2026_07_28);
  private static final String LEVELS =
      "debug, info, notice, warning, error, critical, alert, emergency";

  private final McpServer server = SampleCatalog.server();
  private final ServerSession session = server.openSession(new Recorder());
  private final StatelessEndpoint stateless = server.openStateless();

  @AfterEach
  void close() {
    session.close();
    server.close();
  }

  @Test
  void anUnknownLevelIsInvalidParamsOnASessionChannel() {
    String answer = MessageCodec.encode(session.handle(list(7, "\"loud\""), new Recorder()));
    MODERN.assertConforms(answer, "prompts/list");
    assertThat(answer)
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":"
            + "\"Invalid params: _meta[\\\"io.modelcontextprotocol/logLevel\\\"] must be one of "
            + LEVELS + "\"}}");
  }

  @Test
  void aLevelThatIsNoStringIsInvalidParamsOnTheStatelessEndpoint() {
    Request request = list(8, "3");
    String answer = new String(
        stateless
            .receive(
                new Incoming.Single(request),
                new RequestHeaders("2026-07-28", "prompts/list", null))
            .run(new Recorder())
            .encode(false),
        StandardCharsets.UTF_8);
    MODERN.assertConforms(answer, "prompts/list");
    assertThat(answer).contains("\"code\":-32602", LEVELS + " (a string; got number)");
  }

  @Test
  void aKnownLevelIsAccepted() {
    String answer = MessageCodec.encode(session.handle(list(9, "\"warning\""), new Recorder()));
    assertThat(answer).contains("\"result\"", "\"prompts\"");
  }

  private static Request list(int id, String level) {
    return Wire.request(
        "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"prompts/list\",\"params\":{\"_meta\":"
            + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/logLevel\":" + level + "}}}");
  }
}
