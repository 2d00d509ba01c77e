package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Modern requests are stateless: they neither need nor create session state, and the eras do not
 * leak into each other.
 */
class EraTest {
  @Test
  void modernRequestsLeaveTheSessionUninitialized() {
    try (McpServer server = SampleCatalog.server()) {
      ServerSession session = server.openSession(new Recorder());
      modern(
          session.handle(Wire.modern(1, "server/discover", ""), new Recorder()), "server/discover");
      modern(session.handle(Wire.modern(2, "prompts/list", ""), new Recorder()), "prompts/list");
      assertThat(session.negotiatedVersion()).isEmpty();
      Response legacy = session.handle(Wire.legacy(3, "prompts/list", ""), new Recorder());
      // Neither a version in _meta nor an initialize before: a malformed modern request (-32602),
      // not -32022, which must name the version requested and there is none.
      assertThat(legacy).isInstanceOfSatisfying(ErrorResponse.class, e -> {
        assertThat(e.code()).isEqualTo(-32602);
        assertThat(e.message())
            .contains("io.modelcontextprotocol/protocolVersion")
            .contains("initialize");
      });
    }
  }

  private static void modern(Response response, String method) {
    assertThat(response).isInstanceOf(ResultResponse.class);
    SchemaHarness.of(ProtocolVersion.V2026_07_28)
        .assertConforms(MessageCodec.encode(response), method);
  }

  @Test
  void aLegacySessionStillServesModernRequestsStatelessly() {
    try (McpServer server = SampleCatalog.server()) {
      ServerSession session = server.openSession(new Recorder());
      session.handle(Wire.initialize("2024-11-05"), new Recorder());
      assertThat(session.negotiatedVersion()).contains(ProtocolVersion.V2024_11_05);
      ResultResponse modern =
          (ResultResponse) session.handle(Wire.modern(2, "prompts/list", ""), new Recorder());
      modern(modern, "prompts/list");
      ResultResponse legacy =
          (ResultResponse) session.handle(Wire.legacy(3, "prompts/list", ""), new Recorder());
      SchemaHarness.of(ProtocolVersion.V2024_11_05)
          .assertConforms(MessageCodec.encode(legacy), "prompts/list");
    }
  }

  @Test
  void modernClientsHearOfChangesOnlyThroughSubscriptions() throws Exception {
    Recorder sessionChannel = new Recorder();
    Recorder initializedChannel = new Recorder();
    try (McpServer server = SampleCatalog.server()) {
      ServerSession modern = server.openSession(sessionChannel);
      modern.handle(Wire.modern(1, "prompts/list", ""), new Recorder());
      server.openSession(initializedChannel).handle(Wire.initialize("2025-06-18"), new Recorder());
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of("new", null, List.of()), a -> List.of(PromptMessage.user("x"))));
      assertThat(initializedChannel.next()).contains("list_changed");
      server.prompts().remove("new");
      assertThat(initializedChannel.next()).contains("list_changed");
      assertThat(sessionChannel.all()).isEmpty();
    }
  }
}
