package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Initialized legacy sessions hear {@code notifications/prompts/list_changed} after catalog edits,
 * coalesced.
 */
class LegacyListChangedTest {
  private static final String LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}";

  private final PromptCatalog catalog = PromptCatalog.create();
  private final McpServer server = McpServer.builder()
      .prompts(catalog)
      .changeCoalescing(Duration.ofMillis(20))
      .build();

  @AfterEach
  void close() {
    server.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void everyLegacyVersionHearsOfChanges(String version) throws Exception {
    Recorder out = new Recorder();
    ServerSession session = server.openSession(out);
    session.handle(Wire.initialize(version), new Recorder());
    session.handle(
        Wire.notification("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    catalog.put(prompt("p"));
    assertThat(out.next()).isEqualTo(LIST_CHANGED);
    SchemaHarness.of(ProtocolVersion.of(version).orElseThrow()).assertConforms(LIST_CHANGED, null);
    session.close();
  }

  @Test
  void aBurstOfEditsBecomesOneNotification() throws Exception {
    // A long window, so that the burst of separate edits surely lands in one notification even on a
    // busy machine.
    try (McpServer patient = McpServer.builder()
        .prompts(catalog)
        .changeCoalescing(Duration.ofSeconds(1))
        .build()) {
      Recorder out = new Recorder();
      patient.openSession(out).handle(Wire.initialize("2025-06-18"), new Recorder());
      for (int i = 0; i < 50; i++) {
        catalog.put(prompt("p" + i));
      }
      catalog.remove("p7");
      assertThat(out.next()).isEqualTo(LIST_CHANGED);
      catalog.put(prompt(
          "later")); // the timer fires in order: once this one arrives, the burst's round is over
      assertThat(out.next()).isEqualTo(LIST_CHANGED);
      assertThat(out.all()).hasSize(2);
    }
  }

  @Test
  void onlyInitializedOpenSessionsHearOfChanges() throws Exception {
    Recorder initialized = new Recorder();
    Recorder fresh = new Recorder();
    Recorder closed = new Recorder();
    server.openSession(initialized).handle(Wire.initialize("2025-06-18"), new Recorder());
    server.openSession(fresh);
    ServerSession closing = server.openSession(closed);
    closing.handle(Wire.initialize("2025-06-18"), new Recorder());
    closing.close();

    catalog.put(prompt("a"));
    assertThat(initialized.next()).isEqualTo(LIST_CHANGED);
    catalog.put(prompt("b"));
    assertThat(initialized.next()).isEqualTo(LIST_CHANGED);
    assertThat(fresh.all()).isEmpty();
    assertThat(closed.all()).isEmpty();
  }

  @Test
  void editsThatChangeNothingAreNotAnnounced() throws Exception {
    Recorder out = new Recorder();
    server.openSession(out).handle(Wire.initialize("2025-11-25"), new Recorder());
    PromptDefinition same = prompt("same");
    catalog.put(same);
    assertThat(out.next()).isEqualTo(LIST_CHANGED);
    catalog.put(same);
    catalog.remove("missing");
    catalog.update(editor -> {});
    catalog.put(prompt("other"));
    assertThat(out.next()).isEqualTo(LIST_CHANGED);
    assertThat(out.all()).hasSize(2);
  }

  @Test
  void aSessionWhoseChannelFailsIsDroppedAndOthersStillHear() throws Exception {
    Recorder healthy = new Recorder();
    server
        .openSession(m -> {
          throw new IllegalStateException("stream closed");
        })
        .handle(Wire.initialize("2025-06-18"), new Recorder());
    server.openSession(healthy).handle(Wire.initialize("2025-06-18"), new Recorder());
    catalog.put(prompt("x"));
    assertThat(healthy.next()).isEqualTo(LIST_CHANGED);
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, null, List.of()), args -> List.of(PromptMessage.user(name)));
  }
}
