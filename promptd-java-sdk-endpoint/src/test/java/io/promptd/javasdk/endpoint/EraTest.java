package io.promptd.javasdk.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** How a POST's era is told from its headers and message. */
class EraTest {
  private static final String DISCOVER =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}";
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";
  private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/list\"}";
  private static final String MODERN_LIST =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\","
          + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}";

  private static Era era(@Nullable String version, @Nullable String session, String body)
      throws Refusal {
    return Era.of(version, session, JsonCodec.parse(body));
  }

  @Test
  void aKnownVersionHeaderDecidesFirst() throws Refusal {
    assertThat(era("2026-07-28", null, LIST)).isEqualTo(Era.MODERN);
    assertThat(era("2026-07-28", "s1", LIST)).isEqualTo(Era.MODERN);
    assertThat(era("2025-11-25", null, MODERN_LIST)).isEqualTo(Era.LEGACY);
    assertThat(era("2025-06-18", null, DISCOVER)).isEqualTo(Era.LEGACY);
  }

  @Test
  void aSessionIsLegacy() throws Refusal {
    assertThat(era(null, "s1", LIST)).isEqualTo(Era.LEGACY);
    assertThat(era("1999-01-01", "s1", MODERN_LIST)).isEqualTo(Era.LEGACY);
    assertThat(era(null, "s1", "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"))
        .isEqualTo(Era.LEGACY);
  }

  @Test
  void withoutHeadersTheMessageDecides() throws Refusal {
    assertThat(era(null, null, INITIALIZE)).isEqualTo(Era.LEGACY);
    assertThat(era(null, null, "[" + INITIALIZE + "]")).isEqualTo(Era.LEGACY);
    assertThat(era(null, null, DISCOVER)).isEqualTo(Era.MODERN);
    assertThat(era(null, null, MODERN_LIST)).isEqualTo(Era.MODERN);
    // A version the server does not know is the modern server's to refuse, with its list.
    assertThat(era("2099-01-01", null, MODERN_LIST)).isEqualTo(Era.MODERN);
    assertThat(era("2099-01-01", "", INITIALIZE)).isEqualTo(Era.LEGACY);
  }

  @Test
  void otherVerbsAreASessionsUnlessTheyNameTheModernVersionAlone() {
    assertThat(Era.ofOtherVerb(null, "s1")).isEqualTo(Era.LEGACY);
    assertThat(Era.ofOtherVerb(null, null)).isEqualTo(Era.LEGACY);
    assertThat(Era.ofOtherVerb("2025-11-25", "s1")).isEqualTo(Era.LEGACY);
    assertThat(Era.ofOtherVerb("2026-07-28", "s1")).isEqualTo(Era.LEGACY);
    assertThat(Era.ofOtherVerb("2026-07-28", null)).isEqualTo(Era.MODERN);
  }

  @Test
  void aMessageOfNeitherEraIsRefusedWithItsId() {
    assertThatThrownBy(() -> era(null, null, LIST)).isInstanceOfSatisfying(Refusal.class, r -> {
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.code()).isEqualTo(-32600);
      assertThat(r.id()).isEqualTo(JsonNumber.of(7));
      assertThat(r.getMessage()).contains("initialize", "2026-07-28");
    });
    assertThatThrownBy(() -> era(null, null, "\"initialize\""))
        .isInstanceOfSatisfying(Refusal.class, r -> {
          assertThat(r.status()).isEqualTo(400);
          assertThat(r.code()).isEqualTo(-32600);
        });
  }
}
