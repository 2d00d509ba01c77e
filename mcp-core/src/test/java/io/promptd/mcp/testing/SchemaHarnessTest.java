package io.promptd.mcp.testing;

import static io.promptd.mcp.protocol.ProtocolVersion.V2024_11_05;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_03_26;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_11_25;
import static io.promptd.mcp.protocol.ProtocolVersion.V2026_07_28;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.protocol.ProtocolVersion;
import org.junit.jupiter.api.Test;

/**
 * The harness must accept what the schemas allow and catch what they do not, including fields from
 * newer versions.
 */
class SchemaHarnessTest {
  private static final String LIST_2025_03_26 =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"prompts\":[{\"name\":\"a\",\"description\":\"d\"}]}}";

  @Test
  void acceptsAConformingResult() {
    assertThat(SchemaHarness.of(V2025_03_26).check(LIST_2025_03_26, "prompts/list"))
        .isEmpty();
  }

  @Test
  void flagsATitleOnA2025_03_26Prompt() {
    String json = LIST_2025_03_26.replace("\"name\":\"a\"", "\"name\":\"a\",\"title\":\"A\"");
    assertThat(SchemaHarness.of(V2025_03_26).check(json, "prompts/list"))
        .containsExactly(
            "$.result.prompts[0].title: property 'title' is not defined here by the 2025-03-26 schema");
    assertThat(SchemaHarness.of(V2025_06_18).check(json, "prompts/list")).isEmpty();
  }

  @Test
  void flagsIconsOnA2025_06_18PromptButNotOn2025_11_25() {
    String json = LIST_2025_03_26.replace(
        "\"name\":\"a\"", "\"name\":\"a\",\"icons\":[{\"src\":\"https://x/i.png\"}]");
    assertThat(SchemaHarness.of(V2025_06_18).check(json, "prompts/list"))
        .singleElement()
        .asString()
        .contains("'icons' is not defined");
    assertThat(SchemaHarness.of(V2025_11_25).check(json, "prompts/list")).isEmpty();
  }

  @Test
  void flagsAnUnknownIconFieldInsideAnArray() {
    String json = LIST_2025_03_26.replace(
        "\"name\":\"a\"",
        "\"name\":\"a\",\"icons\":[{\"src\":\"https://x/i.png\",\"colour\":\"red\"}]");
    assertThat(SchemaHarness.of(V2025_11_25).check(json, "prompts/list"))
        .containsExactly(
            "$.result.prompts[0].icons[0].colour: property 'colour' is not defined here by the 2025-11-25 schema");
  }

  @Test
  void flagsAudioContentIn2024_11_05AndLastModifiedBefore2025_06_18() {
    String audio = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"messages\":[{\"role\":\"user\","
        + "\"content\":{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\"}}]}}";
    assertThat(SchemaHarness.of(V2024_11_05).check(audio, "prompts/get")).isNotEmpty();
    assertThat(SchemaHarness.of(V2025_03_26).check(audio, "prompts/get")).isEmpty();
    String annotated =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"messages\":[{\"role\":\"user\",\"content\":"
            + "{\"type\":\"text\",\"text\":\"t\",\"annotations\":{\"priority\":0.5,\"lastModified\":\"2025-01-12T15:00:58Z\"}}}]}}";
    assertThat(SchemaHarness.of(V2025_03_26).check(annotated, "prompts/get"))
        .singleElement()
        .asString()
        .contains("lastModified");
    assertThat(SchemaHarness.of(V2025_06_18).check(annotated, "prompts/get")).isEmpty();
  }

  @Test
  void requiresModernResultFields() {
    String bare = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"prompts\":[]}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(bare, "prompts/list")).isNotEmpty();
    String full =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"prompts\":[],\"ttlMs\":0,\"cacheScope\":\"public\","
            + "\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\",\"version\":\"1\"},"
            + "\"com.example/anything\":1}}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(full, "prompts/list")).isEmpty();
    assertThat(SchemaHarness.of(V2025_11_25).check(full, "prompts/list"))
        .hasSize(3); // resultType, ttlMs, cacheScope
  }

  @Test
  void flagsAResultForAMethodTheVersionDoesNotDefine() {
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\"}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(ping, "ping"))
        .containsExactly(
            "ping is not a method 2026-07-28 defines, yet it was answered with a result");
  }

  @Test
  void emptyResultsMustBeEmpty() {
    assertThat(SchemaHarness.of(V2025_06_18)
            .check("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"result\":{}}", "ping"))
        .isEmpty();
    assertThat(SchemaHarness.of(V2025_06_18)
            .check("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"result\":{\"ok\":true}}", "ping"))
        .singleElement()
        .asString()
        .contains("'ok'");
  }

  @Test
  void checksErrorsAndToleratesOnlyTheJsonRpcNullId() {
    String parseError =
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
    for (var v : ProtocolVersion.values()) {
      assertThat(SchemaHarness.of(v).check(parseError, null)).as(v.id()).isEmpty();
    }
    String badId = parseError.replace("null", "true");
    assertThat(SchemaHarness.of(V2025_06_18).check(badId, null)).isNotEmpty();
    String extra =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"m\",\"trace\":\"x\"}}";
    assertThat(SchemaHarness.of(V2024_11_05).check(extra, null))
        .singleElement()
        .asString()
        .contains("'trace'");
  }

  @Test
  void checksModernErrorsByCode() {
    String unsupported =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,\"message\":\"m\","
            + "\"data\":{\"supported\":[\"2026-07-28\"]}}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(unsupported, null))
        .singleElement()
        .asString()
        .contains("requested");
    String complete = unsupported.replace("]}", "],\"requested\":\"1900-01-01\"}");
    assertThat(SchemaHarness.of(V2026_07_28).check(complete, null)).isEmpty();
  }

  @Test
  void checksNotificationsAndBatches() {
    String changed = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}";
    assertThat(SchemaHarness.of(V2024_11_05).check(changed, null)).isEmpty();
    String ack =
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{"
            + "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":7},\"notifications\":{\"promptsListChanged\":true}}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(ack, null)).isEmpty();
    assertThat(SchemaHarness.of(V2025_11_25).check(ack, null))
        .singleElement()
        .asString()
        .contains("is not one 2025-11-25 defines");
    String batch = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}]";
    assertThat(SchemaHarness.of(V2025_03_26).check(batch, "ping")).isEmpty();
    assertThat(SchemaHarness.of(V2025_06_18).check(batch, "ping"))
        .containsExactly("JSON-RPC batches are not defined in 2025-06-18");
  }

  @Test
  void flagsCapabilitiesAndServerInfoFieldsFromNewerVersions() {
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2024-11-05\",\"capabilities\":"
            + "{\"prompts\":{\"listChanged\":true},\"completions\":{}},\"serverInfo\":{\"name\":\"s\",\"title\":\"S\",\"version\":\"1\"}}}";
    assertThat(SchemaHarness.of(V2024_11_05).check(init, "initialize"))
        .containsExactlyInAnyOrder(
            "$.result.capabilities.completions: property 'completions' is not defined here by the 2024-11-05 schema",
            "$.result.serverInfo.title: property 'title' is not defined here by the 2024-11-05 schema");
    assertThat(SchemaHarness.of(V2025_06_18).check(init, "initialize")).isEmpty();
  }

  @Test
  void checksAnyNamedDefinition() {
    assertThat(SchemaHarness.of(V2025_06_18)
            .checkAs(
                "ResourceLink",
                "{\"type\":\"resource_link\",\"uri\":\"file:///a\",\"name\":\"a\"}"))
        .isEmpty();
    assertThat(SchemaHarness.of(V2025_06_18)
            .checkAs("ResourceLink", "{\"type\":\"resource_link\",\"uri\":\"file:///a\"}"))
        .singleElement()
        .asString()
        .contains("name");
    assertThat(SchemaHarness.of(V2025_03_26).defines("ResourceLink")).isFalse();
  }

  @Test
  void checksRequestsAndClientNotificationsToo() {
    String list =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"c\","
            + "\"_meta\":{\"progressToken\":1}}}";
    assertThat(SchemaHarness.of(V2025_06_18).check(list, null)).isEmpty();
    assertThat(SchemaHarness.of(V2025_06_18).check(list.replace("\"cursor\"", "\"page\""), null))
        .singleElement()
        .asString()
        .contains("'page'");
    assertThat(SchemaHarness.of(V2026_07_28).check(list, null))
        .isNotEmpty(); // no per-request protocol _meta
    String modern =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{\"_meta\":"
            + Wire.MODERN_META + "}}";
    assertThat(SchemaHarness.of(V2026_07_28).check(modern, null)).isEmpty();
    assertThat(SchemaHarness.of(V2024_11_05)
            .check("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", null))
        .isEmpty();
    assertThat(SchemaHarness.of(V2025_11_25)
            .check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}", null))
        .containsExactly("request server/discover is not one 2025-11-25 defines");
  }

  @Test
  void assertConformsNamesTheMessage() {
    assertThatThrownBy(() -> SchemaHarness.of(V2025_06_18)
            .assertConforms("{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{}}", "ping"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("jsonrpc")
        .hasMessageContaining("message:");
  }
}
