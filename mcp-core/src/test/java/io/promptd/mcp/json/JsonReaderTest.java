package io.promptd.mcp.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * promptd's JSON reader against Jackson's parser (which promptd used before), and its own rules.
 */
class JsonReaderTest {
  private static final JsonFactory JACKSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  @Test
  void readsWhatJacksonReadsAndRefusesWhatItRefuses() throws IOException {
    Random random = new Random(7);
    String[] seeds = {
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":\"x\",\"arguments\":{\"a\":\"b\"}}}",
      "[1,-0,0.5,-1.25e-3,1E+2,9223372036854775807,-9223372036854775808,9223372036854775808,true,false,null]",
      "{\"s\":\"q\\\" b\\\\ \\/ \\b\\f\\n\\r\\t \\u00e9\\ud83d\\ude00 é 😀\",\"e\":{},\"a\":[[],[{}]]}",
    };
    int compared = 0;
    for (int i = 0; i < 20_000; i++) {
      String seed = seeds[random.nextInt(seeds.length)];
      byte[] doc = mutate(seed.getBytes(UTF_8), random, i % 4 == 0 ? 0 : 1 + random.nextInt(3));
      Json jackson = jackson(doc);
      Json ours;
      String refusal = "";
      try {
        ours = JsonCodec.parse(doc, 0, doc.length);
      } catch (JsonException e) {
        ours = null;
        refusal = e.getMessage();
      }
      String shown = new String(doc, UTF_8);
      if (jackson != null && ours == null && refusal.contains("UTF-8")) {
        // Jackson lets some malformed UTF-8 through inside strings (as U+FFxx); promptd refuses it
        continue;
      }
      if (jackson == null) {
        assertThat(ours).as("Jackson refuses %s", shown).isNull();
      } else {
        assertThat(ours).as("Jackson reads %s", shown).isEqualTo(jackson);
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(5_000);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-0|0|true",
        "0|0|true",
        "9223372036854775807|9223372036854775807|true",
        "-9223372036854775808|-9223372036854775808|true",
        "9223372036854775808|9223372036854775808|false",
        "1.0|1|true",
        "7e0|7|true",
        "1E+2|100|true",
        "0.1|0.1|false",
        "1e400|1E+400|false",
        "-2.50|-2.50|false"
      })
  void numbersAreExact(String text, String written, boolean isLong) {
    JsonNumber n = (JsonNumber) JsonCodec.parse(text);
    assertThat(n.isLong()).isEqualTo(isLong);
    assertThat(JsonCodec.write(n)).isEqualTo(written);
    assertThat(n).isEqualTo(JsonNumber.of(new BigDecimal(text)));
  }

  @Test
  void doublesThatAreIntegersWithinALongAreKeptAsOne() {
    assertThat(JsonNumber.of(7.0).isLong()).isTrue();
    assertThat(JsonNumber.of(-0.0)).isEqualTo(JsonNumber.of(0));
    assertThat(JsonNumber.of(-0x1p63).longValue()).isEqualTo(Long.MIN_VALUE);
    assertThat(JsonNumber.of(0x1p63).isLong())
        .as("2^63 is one past Long.MAX_VALUE")
        .isFalse();
    assertThat(JsonCodec.write(JsonNumber.of(0x1p63))).isEqualTo("9.223372036854776E+18");
    assertThat(JsonNumber.of(1.5).isLong()).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"a\":|unexpected end of input: expected a value at line 1, column 6",
        "\"abc|unexpected end of input inside a string at line 1, column 5",
        "[1,|unexpected end of input: expected a value at line 1, column 4",
        "tru|unexpected end of input: expected 'true' at line 1, column 1",
        "-|unexpected end of input inside a number at line 1, column 2",
        "1e|invalid number: expected a digit in the exponent at line 1, column 3",
        "\"\\u12\"|invalid \\u escape: expected four hexadecimal digits at line 1, column 2",
        "01|invalid number: no leading zeros at line 1, column 2",
        ".5|unexpected character '.': expected a value at line 1, column 1",
        "1.|invalid number: expected a digit after '.' at line 1, column 3",
        "+1|unexpected character '+': expected a value at line 1, column 1",
        "NaN|unexpected character 'N': expected a value at line 1, column 1",
        "{'a':1}|unexpected character ''': expected a member name in double quotes at line 1, column 2",
        "[1 2]|unexpected character '2': expected ',' or ']' at line 1, column 4",
        "\"\\x\"|invalid escape '\\x' at line 1, column 2"
      })
  void errorsSayWhatAndWhere(String text, String message) {
    assertThatThrownBy(() -> JsonCodec.parse(text))
        .isInstanceOf(JsonException.class)
        .hasMessage(message);
  }

  @Test
  void linesAndColumnsCountCharactersNotBytes() {
    assertThatThrownBy(() -> JsonCodec.parse("{}\n {}"))
        .hasMessage("unexpected text after the JSON value at line 2, column 2");
    assertThatThrownBy(() -> JsonCodec.parse("\"é\" x"))
        .hasMessage("unexpected text after the JSON value at line 1, column 5");
  }

  @Test
  void malformedUtf8AndRawControlCharactersAreRefused() {
    byte[][] bad = {
      {'"', (byte) 0xc3, '"'}, // truncated 2-byte sequence
      {'"', (byte) 0xc0, (byte) 0xaf, '"'}, // overlong '/'
      {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'}, // a surrogate encoded in UTF-8
      {'"', (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'}, // beyond U+10FFFF
      {'"', (byte) 0xff, '"'}, // never valid
      {'"', (byte) 0xe2, (byte) 0x82}, // cut off at the end
      {'"', 1, '"'}, // raw control character
    };
    for (byte[] b : bad) {
      assertThatThrownBy(() -> JsonCodec.parse(b, 0, b.length))
          .isInstanceOf(JsonException.class)
          .hasMessageContaining(" at line 1, column ");
    }
  }

  @Test
  void aLeadingByteOrderMarkIsIgnoredAndOneElsewhereIsRefused() {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'};
    assertThat(JsonCodec.parse(bom, 0, bom.length)).isEqualTo(JsonObject.EMPTY);
    byte[] late = {' ', (byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'};
    assertThatThrownBy(() -> JsonCodec.parse(late, 0, late.length))
        .isInstanceOf(JsonException.class)
        .hasMessage("unexpected byte 0xef: expected a value at line 1, column 2");
  }

  @Test
  void readsOnlyTheGivenSliceAndRefusesOverlongNumbers() {
    byte[] framed = "xx{\"a\":[1]}yy".getBytes(UTF_8);
    assertThat(JsonCodec.parse(framed, 2, framed.length - 4))
        .isEqualTo(JsonCodec.parse("{\"a\":[1]}"));
    assertThatThrownBy(() -> JsonCodec.parse("1".repeat(1001)))
        .hasMessageStartingWith("number longer than 1000");
    assertThat(JsonCodec.parse("1".repeat(1000))).isInstanceOf(JsonNumber.class);
  }

  /**
   * The point of the reader: a typical request, ids included, never initializes BigDecimal (12–18
   * ms when cold).
   */
  @Test
  void aTypicalRequestDoesNotInitializeBigDecimal() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(
            java.toString(),
            "-Xlog:class+init=info",
            "-cp",
            System.getProperty("java.class.path"),
            ParseOneRequest.class.getName())
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out)
        .contains("parsed prompts/get")
        .contains("Initializing 'io/promptd/mcp/json/JsonReader'")
        .doesNotContain("Initializing 'java/math/BigDecimal'");
  }

  /** Run in a child JVM by the test above. */
  static final class ParseOneRequest {
    private ParseOneRequest() {}

    public static void main(String[] args) {
      Json request = JsonCodec.parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\","
          + "\"params\":{\"name\":\"x\",\"arguments\":{\"a\":\"b\"}}}");
      System.out.println("parsed " + ((JsonObject) request).string("method").orElseThrow() + " "
          + JsonCodec.write(request).length());
    }
  }

  /** Flips, drops, inserts or truncates a few bytes. */
  private static byte[] mutate(byte[] doc, Random random, int edits) {
    List<Byte> bytes = new ArrayList<>();
    for (byte b : doc) {
      bytes.add(b);
    }
    byte[] alphabet = "{}[]\":,\\ 0123456789.eE+-tfnulr\u0001\t\n".getBytes(UTF_8);
    for (int e = 0; e < edits && !bytes.isEmpty(); e++) {
      int at = random.nextInt(bytes.size());
      switch (random.nextInt(5)) {
        case 0 -> bytes.set(at, alphabet[random.nextInt(alphabet.length)]);
        case 1 -> bytes.remove(at);
        case 2 -> bytes.add(at, alphabet[random.nextInt(alphabet.length)]);
        case 3 -> bytes.set(at, (byte) random.nextInt(256));
        default -> bytes.subList(at, bytes.size()).clear();
      }
    }
    byte[] out = new byte[bytes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bytes.get(i);
    }
    return out;
  }

  /** Jackson's reading as a {@link Json} tree, or null when it refuses the document. */
  private static Json jackson(byte[] doc) throws IOException {
    try (JsonParser p = JACKSON.createParser(doc)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return null;
      }
      Json value = jacksonValue(p, first);
      return p.nextToken() == null ? value : null;
    } catch (JacksonException | NumberFormatException e) {
      return null; // NumberFormatException: an exponent beyond BigDecimal's range, refused by both
    }
  }

  private static Json jacksonValue(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> {
        Map<String, Json> members = new LinkedHashMap<>();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT; n = p.nextToken()) {
          String name = p.currentName();
          members.put(name, jacksonValue(p, p.nextToken()));
        }
        yield new JsonObject(members);
      }
      case START_ARRAY -> {
        List<Json> elements = new ArrayList<>();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
          elements.add(jacksonValue(p, n));
        }
        yield new JsonArray(elements);
      }
      case VALUE_STRING -> new JsonString(p.getText());
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> JsonNumber.of(p.getDecimalValue());
      case VALUE_TRUE -> JsonBoolean.TRUE;
      case VALUE_FALSE -> JsonBoolean.FALSE;
      case VALUE_NULL -> JsonNull.INSTANCE;
      default -> throw new IllegalStateException("token " + t);
    };
  }
}
