package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.spi.Admission;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.testing.SampleCatalog;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link McpServer#admit} decides each POST's era as the HTTP transport always did, case by case.
 */
class AdmissionTest {
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";
  private static final String MODERN_LIST =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{" + META + "}}";
  private static final String LEGACY_LIST =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}";
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
          + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  private static final String UNREADABLE = "{\"jsonrpc\":";

  private final McpServer server = SampleCatalog.server();

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void aModernVersionInTheHeaderOrTheBodyIsStateless() {
    Admission stateless = new Admission.Stateless();
    assertThat(admit("2026-07-28", LEGACY_LIST, false)).isEqualTo(stateless);
    assertThat(admit(null, MODERN_LIST, false)).isEqualTo(stateless);
    // An unknown version is the stateless era's to refuse, with its "unsupported version" error.
    assertThat(admit("2099-01-01", LEGACY_LIST, false)).isEqualTo(stateless);
    assertThat(admit(" 2026-07-28 ", UNREADABLE, false)).isEqualTo(stateless);
    assertThat(admit(
            null,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{" + META + "}}",
            false))
        .isEqualTo(stateless);
  }

  @Test
  void aModernRequestIsStatelessEvenWithinASession() {
    assertThat(admit("2026-07-28", MODERN_LIST, true)).isEqualTo(new Admission.Stateless());
    assertThat(admit(null, MODERN_LIST, true)).isEqualTo(new Admission.Stateless());
  }

  @Test
  void aModernListenIsAStreamCarryingItsRequest() {
    String listen = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"subscriptions/listen\","
        + "\"params\":{" + META + "}}";
    assertThat(admit("2026-07-28", listen, false)).isEqualTo(new Admission.Listen(request(listen)));
    assertThat(admit(null, listen, true)).isEqualTo(new Admission.Listen(request(listen)));
  }

  @Test
  void unreadableInputWithoutASessionIsRejectedWithItsOwnError() {
    Incoming in = MessageCodec.decode(UNREADABLE);
    assertThat(server.admit(new RequestHeaders(null, null, null), in, false))
        .isInstanceOfSatisfying(Admission.Rejected.class, r -> {
          assertThat(r.reply().hint()).isEqualTo(Reply.Hint.REJECTED);
          assertThat(r.reply().response()).isEqualTo(((Incoming.Invalid) in).error());
          // No version in force: the null id is left out.
          assertThat(new String(r.reply().encode(false), StandardCharsets.UTF_8))
              .isEqualTo(
                  "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error:"
                      + " unexpected end of input: expected a value at line 1, column 12\"}}");
        });
    assertThat(admit("2025-06-18", UNREADABLE, false)).isInstanceOf(Admission.Rejected.class);
  }

  @Test
  void legacyInputWithinASessionIsTheSessions() {
    Admission inSession = new Admission.InSession();
    assertThat(admit(null, LEGACY_LIST, true)).isEqualTo(inSession);
    assertThat(admit("2025-06-18", LEGACY_LIST, true)).isEqualTo(inSession);
    // The session answers unreadable input under its version's rule, and a second initialize.
    assertThat(admit(null, UNREADABLE, true)).isEqualTo(inSession);
    assertThat(admit(null, INITIALIZE, true)).isEqualTo(inSession);
  }

  @Test
  void initializeWithoutASessionCarriesItsRequest() {
    assertThat(admit(null, INITIALIZE, false))
        .isEqualTo(new Admission.Initialize(request(INITIALIZE)));
    assertThat(admit("2025-06-18", INITIALIZE, false))
        .isEqualTo(new Admission.Initialize(request(INITIALIZE)));
  }

  @Test
  void anyOtherLegacyInputWithoutASessionHasNoSession() {
    Admission none = new Admission.NoSession();
    assertThat(admit(null, LEGACY_LIST, false)).isEqualTo(none);
    assertThat(admit("2025-06-18", LEGACY_LIST, false)).isEqualTo(none);
    assertThat(admit(null, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", false))
        .isEqualTo(none);
    assertThat(admit(null, "[" + INITIALIZE + "]", false)).isEqualTo(none);
  }

  private Admission admit(@Nullable String version, String body, boolean inSession) {
    return server.admit(
        new RequestHeaders(version, null, null), MessageCodec.decode(body), inSession);
  }

  private static Request request(String body) {
    return (Request) ((Incoming.Single) MessageCodec.decode(body)).message();
  }
}
