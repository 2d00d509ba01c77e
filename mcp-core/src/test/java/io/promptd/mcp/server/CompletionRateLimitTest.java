package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Caller;
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
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * completion.mdx, security: implementations MUST rate-limit completion. One token bucket per client
 * — a legacy session; in 2026-07-28 the token's subject, else the client's address, else the
 * process — on a clock the test steps by hand, so nothing depends on timing.
 */
class CompletionRateLimitTest {
  private static final String COMPLETE = "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"pick_city\"},"
      + "\"argument\":{\"name\":\"city\",\"value\":\"\"}";
  private static final String LIMITED =
      "{\"code\":-31429,\"message\":\"completion rate limit exceeded: 2 per second;"
          + " retry later\",\"data\":{\"retryAfterMs\":";

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final McpServer server = McpServer.builder()
      .prompts(SampleCatalog.catalog())
      .completionRateLimit(2, 3)
      .clock(nanos::get)
      .build();
  private final StatelessEndpoint stateless = server.openStateless();
  private int id;

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void aLegacySessionGetsItsBurstThenAClearErrorThenTokensAtTheRate() {
    ServerSession session = legacySession();
    for (int i = 0; i < 3; i++) {
      assertThat(legacy(session)).contains("\"completion\"");
    }
    String refused = legacy(session);
    SchemaHarness.of(ProtocolVersion.V2025_06_18).assertConforms(refused, "completion/complete");
    assertThat(refused).contains(LIMITED + "500}}");
    nanos.addAndGet(250_000_000L);
    assertThat(legacy(session)).as("half a token is not enough").contains(LIMITED + "250}}");
    nanos.addAndGet(250_000_000L);
    assertThat(legacy(session)).contains("\"completion\"");
    assertThat(legacy(session)).contains("-31429");
    assertThat(legacy(legacySession()))
        .as("another session has its own bucket")
        .contains("\"completion\"");
  }

  @Test
  void aPauseRefillsNoMoreThanTheBurst() {
    ServerSession session = legacySession();
    nanos.addAndGet(3_600_000_000_000L);
    for (int i = 0; i < 3; i++) {
      assertThat(legacy(session)).contains("\"completion\"");
    }
    assertThat(legacy(session)).contains("-31429");
  }

  @Test
  void modernClientsAreTheTokenSubjectElseTheAddressElseTheProcess() {
    Caller alice = Caller.authenticated("alice", Set.of());
    Caller bob = Caller.authenticated("bob", Set.of());
    for (int i = 0; i < 3; i++) {
      assertThat(modern(alice, "10.0.0." + i))
          .as("one subject from three addresses")
          .contains("\"completion\"");
    }
    assertThat(modern(alice, "10.0.0.9")).contains(LIMITED);
    assertThat(modern(bob, "10.0.0.9")).contains("\"completion\"");

    for (int i = 0; i < 3; i++) {
      assertThat(modern(Caller.UNRESTRICTED, "192.0.2.1")).contains("\"completion\"");
    }
    String refused = modern(Caller.UNRESTRICTED, "192.0.2.1");
    SchemaHarness.of(ProtocolVersion.V2026_07_28).assertConforms(refused, "completion/complete");
    assertThat(refused).contains(LIMITED);
    assertThat(modern(Caller.UNRESTRICTED, "192.0.2.2")).contains("\"completion\"");

    for (int i = 0; i < 3; i++) {
      assertThat(modern(Caller.UNRESTRICTED, null)).contains("\"completion\"");
    }
    assertThat(modern(Caller.UNRESTRICTED, null))
        .as("no address: one bucket for the process")
        .contains(LIMITED);
  }

  @Test
  void modernRequestsOnASessionChannelShareTheSessionsBucket() {
    ServerSession stdio = server.openSession(new Recorder());
    for (int i = 0; i < 3; i++) {
      assertThat(onChannel(stdio)).contains("\"completion\"");
    }
    assertThat(onChannel(stdio)).contains(LIMITED);
  }

  @Test
  void otherMethodsAreNotLimited() {
    ServerSession session = legacySession();
    for (int i = 0; i < 10; i++) {
      assertThat(MessageCodec.encode(
              session.handle(Wire.legacy(++id, "prompts/list", ""), new Recorder())))
          .contains("\"prompts\"");
    }
  }

  @Test
  void idleClientsAreForgotten() {
    for (int i = 0; i < 1100; i++) {
      modern(Caller.UNRESTRICTED, "198.51.100." + i);
    }
    assertThat(server.context().completionLimiter.tracked()).isEqualTo(1100);
    nanos.addAndGet(1_500_000_000L); // 3 tokens at 2 a second: every bucket is full again
    modern(Caller.UNRESTRICTED, "203.0.113.1");
    assertThat(server.context().completionLimiter.tracked()).isEqualTo(1);
  }

  @Test
  void zeroTurnsTheLimitOffAndTheDefaultAllowsABurstOfForty() {
    try (McpServer off = McpServer.builder()
            .prompts(SampleCatalog.catalog())
            .completionRateLimit(0, 0)
            .clock(nanos::get)
            .build();
        McpServer standard = McpServer.builder()
            .prompts(SampleCatalog.catalog())
            .clock(nanos::get)
            .build()) {
      ServerSession free = initialized(off);
      for (int i = 0; i < 500; i++) {
        assertThat(legacy(free)).contains("\"completion\"");
      }
      ServerSession typical = initialized(standard);
      for (int i = 0; i < 40; i++) {
        assertThat(legacy(typical)).contains("\"completion\"");
      }
      assertThat(legacy(typical))
          .contains("completion rate limit exceeded: 20 per second; retry later");
    }
  }

  @Test
  void theBuilderRefusesNonsense() {
    assertThatThrownBy(() -> McpServer.builder().completionRateLimit(-1, 5))
        .hasMessage(
            "McpServer.Builder.completionRateLimit: perSecond must be 0 (off) or positive, not -1.0");
    assertThatThrownBy(() -> McpServer.builder().completionRateLimit(Double.NaN, 5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> McpServer.builder().completionRateLimit(5, 0))
        .hasMessage("McpServer.Builder.completionRateLimit: burst must be at least 1, not 0");
  }

  private ServerSession legacySession() {
    return initialized(server);
  }

  private static ServerSession initialized(McpServer on) {
    ServerSession session = on.openSession(new Recorder());
    session.handle(Wire.initialize("2025-06-18"), new Recorder());
    return session;
  }

  private String legacy(ServerSession session) {
    return MessageCodec.encode(
        session.handle(Wire.legacy(++id, "completion/complete", COMPLETE), new Recorder()));
  }

  private String onChannel(ServerSession session) {
    return MessageCodec.encode(
        session.handle(Wire.modern(++id, "completion/complete", COMPLETE), new Recorder()));
  }

  private String modern(Caller caller, @Nullable String address) {
    Request request = Wire.modern(++id, "completion/complete", COMPLETE);
    byte[] reply = stateless
        .receive(
            new Incoming.Single(request),
            new RequestHeaders("2026-07-28", "completion/complete", "pick_city", address),
            caller)
        .run(new Recorder())
        .encode(false);
    return new String(reply, StandardCharsets.UTF_8);
  }
}
