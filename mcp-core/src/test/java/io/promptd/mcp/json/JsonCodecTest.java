package io.promptd.mcp.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JsonCodecTest {
  @Test
  void roundTripsValuesExactlyAndKeepsMemberOrder() {
    String text =
        "{\"z\":1,\"a\":[true,false,null,\"s\\n\\u00e9\"],\"n\":12345678901234567890,\"d\":0.1,\"o\":{}}";
    assertThat(JsonCodec.write(JsonCodec.parse(text)))
        .isEqualTo(
            "{\"z\":1,\"a\":[true,false,null,\"s\\né\"],\"n\":12345678901234567890,\"d\":0.1,\"o\":{}}");
  }

  @Test
  void parsesUtf8BytesAndWritesALine() {
    byte[] bytes = "{\"k\":\"é\"}".getBytes(StandardCharsets.UTF_8);
    Json value = JsonCodec.parse(bytes, 0, bytes.length);
    assertThat(new String(JsonCodec.writeBytes(value, true), StandardCharsets.UTF_8))
        .isEqualTo("{\"k\":\"é\"}\n");
  }

  @Test
  void refusesDuplicateKeysAndTrailingText() {
    assertThatThrownBy(() -> JsonCodec.parse("{\"a\":1,\"a\":2}"))
        .isInstanceOf(JsonException.class)
        .hasMessage("duplicate member name 'a' at line 1, column 8");
    assertThatThrownBy(() -> JsonCodec.parse("{} {}"))
        .isInstanceOf(JsonException.class)
        .hasMessageStartingWith("unexpected text after the JSON value");
  }

  static List<String> malformed() {
    return List.of(
        "{\"a\":1",
        "{\"a\":\"",
        "[1,",
        "{\"a\":1}x",
        "",
        "tru",
        "\"\\u12\"",
        "1".repeat(2000),
        "[".repeat(JsonCodec.MAX_NESTING_DEPTH + 1),
        "{\"a\":01}",
        "NaN",
        "{'a':1}",
        "\"\u0001\"");
  }

  /**
   * Parse errors go to the peer: they must say what and where, and never name a library class or
   * setting.
   */
  @ParameterizedTest
  @MethodSource("malformed")
  void parseErrorsAreSafeToShow(String text) {
    assertThatThrownBy(() -> JsonCodec.parse(text))
        .isInstanceOfSatisfying(
            JsonException.class,
            e -> assertThat(e.getMessage())
                .isNotBlank()
                .doesNotContain(
                    "`",
                    "Source",
                    "REDACTED",
                    "StreamRead",
                    "JsonRead",
                    "jackson",
                    "Exception",
                    "\n"));
  }

  @Test
  void nestingBeyondTheLimitIsRefusedWithAPlainMessage() {
    assertThatThrownBy(() -> JsonCodec.parse("[".repeat(201) + "]".repeat(201)))
        .hasMessage("nesting deeper than 200 levels at line 1, column 201");
    assertThat(JsonCodec.parse("[".repeat(200) + "]".repeat(200))).isInstanceOf(JsonArray.class);
  }

  @Test
  void objectsRefuseNullMembersWhenBuiltNotWhenWritten() {
    Map<String, Json> members = new HashMap<>();
    members.put("a", null);
    assertThatThrownBy(() -> new JsonObject(members))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("member 'a' (use JsonNull.INSTANCE for JSON null)");
    assertThat(JsonObject.builder().put("a", (Json) null).build()).isEqualTo(JsonObject.EMPTY);
  }

  @Test
  void numbersKnowWhetherTheyAreIntegers() {
    assertThat(((JsonNumber) JsonCodec.parse("1.0")).isLong()).isTrue();
    assertThat(((JsonNumber) JsonCodec.parse("1.5")).isLong()).isFalse();
    assertThat(((JsonNumber) JsonCodec.parse("1e400")).isLong()).isFalse();
    assertThatThrownBy(() -> Json.of(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
