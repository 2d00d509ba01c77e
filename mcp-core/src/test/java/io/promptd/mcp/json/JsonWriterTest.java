package io.promptd.mcp.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** promptd's JSON writer against Jackson's generator (which promptd used before), byte for byte. */
class JsonWriterTest {
  private static final JsonFactory JACKSON = new JsonFactory();

  @Test
  void writesWhatJacksonWritesForThousandsOfRandomTrees() throws IOException {
    Random random = new Random(20261122);
    for (int i = 0; i < 5_000; i++) {
      Json tree = randomValue(random, 0);
      byte[] ours = JsonCodec.writeBytes(tree, false);
      String theirs = new String(jackson(tree), StandardCharsets.UTF_8);
      // Read back, both say the same (an integral decimal such as 7.0 is written as 7 by both,
      // hence the rewrite).
      assertThat(JsonCodec.write(JsonCodec.parse(ours, 0, ours.length)))
          .as("tree %d", i)
          .isEqualTo(JsonCodec.write(JsonCodec.parse(theirs)))
          .isEqualTo(JsonCodec.write(tree));
      // Jackson writes some characters outside the BMP as escaped surrogate pairs, promptd always
      // as UTF-8; where it escaped none, the bytes must be the same.
      if (!theirs.matches("(?s).*\\\\u[dD][89abAB].*")) {
        assertThat(new String(ours, StandardCharsets.UTF_8)).as("tree %d", i).isEqualTo(theirs);
      }
      assertThat(JsonCodec.write(tree)).isEqualTo(new String(ours, StandardCharsets.UTF_8));
    }
  }

  /**
   * Long strings of every kind of char, so that the writer's buffer fills in the middle of
   * multi-byte chars and escapes (it reserves one byte a char and more per char that needs it), and
   * the reader's slow path sizes its buffer from the closing quote. Without surrogate pairs the
   * bytes are Jackson's (which escapes a pair that straddles its own buffer boundary, so it is no
   * reference for them); with them, the bytes are strict UTF-8 and read back equal.
   */
  @Test
  void longStringsOfEveryKindOfCharAreWrittenExactlyAndReadBack() throws IOException {
    Random random = new Random(20261128);
    for (int i = 0; i < 2_000; i++) {
      boolean pairs = i % 2 == 1;
      Map<String, Json> members = new LinkedHashMap<>();
      for (int m = random.nextInt(4); m >= 0; m--) {
        members.put(
            randomString(random, 12, pairs), new JsonString(randomString(random, 3_000, pairs)));
      }
      JsonObject tree = new JsonObject(members);
      byte[] ours = JsonCodec.writeBytes(tree, false);
      if (!pairs) {
        assertThat(new String(ours, StandardCharsets.UTF_8))
            .isEqualTo(new String(jackson(tree), StandardCharsets.UTF_8));
      }
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(ours));
      assertThat(JsonCodec.parse(ours, 0, ours.length)).isEqualTo(tree);
    }
  }

  @Test
  void escapesExactlyWhatJsonRequires() {
    String all = "q\" b\\ s/ \n\r\t\b\f \u0000\u001f\u007f é € 😀 \u2028";
    assertThat(JsonCodec.write(new JsonString(all)))
        .isEqualTo("\"q\\\" b\\\\ s/ \\n\\r\\t\\b\\f \\u0000\\u001F\u007f é € 😀 \u2028\"");
    assertThat(JsonCodec.writeBytes(Json.of(-7), true))
        .isEqualTo("-7\n".getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void anUnpairedSurrogateIsWrittenAsAnEscapeAndReadBackIntact() {
    String lone = "a\ud83db\ude00";
    String written = JsonCodec.write(new JsonString(lone));
    assertThat(written).isEqualTo("\"a\\uD83Db\\uDE00\"");
    assertThat(JsonCodec.parse(written)).isEqualTo(new JsonString(lone));
  }

  @Test
  void longStringsFullOfEscapesGrowTheBuffer() {
    String s = "\u0001é".repeat(10_000) + "x";
    assertThat(JsonCodec.parse(JsonCodec.write(new JsonString(s)))).isEqualTo(new JsonString(s));
  }

  private static byte[] jackson(Json value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JACKSON.createGenerator(out, JsonEncoding.UTF8)) {
      write(g, value);
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator g, Json value) throws IOException {
    switch (value) {
      case JsonObject o -> {
        g.writeStartObject();
        for (Map.Entry<String, Json> e : o.members().entrySet()) {
          g.writeFieldName(new SerializedString(e.getKey())); // as promptd wrote names with Jackson
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case JsonArray a -> {
        g.writeStartArray();
        for (Json element : a.elements()) {
          write(g, element);
        }
        g.writeEndArray();
      }
      case JsonString s -> g.writeString(s.value());
      case JsonNumber n -> {
        if (n.isLong()) {
          g.writeNumber(n.longValue());
        } else {
          g.writeNumber(n.value());
        }
      }
      case JsonBoolean b -> g.writeBoolean(b.value());
      case JsonNull n -> g.writeNull();
    }
  }

  private static Json randomValue(Random random, int depth) {
    int kind = random.nextInt(depth > 4 ? 5 : 7);
    return switch (kind) {
      case 0 -> new JsonString(randomString(random));
      case 1 -> Json.of(random.nextLong() >> random.nextInt(64));
      case 2 -> JsonNumber.of(BigDecimal.valueOf(random.nextLong(), random.nextInt(40) - 20));
      case 3 -> Json.of(random.nextBoolean());
      case 4 -> JsonNull.INSTANCE;
      case 5 -> {
        List<Json> items = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
          items.add(randomValue(random, depth + 1));
        }
        yield new JsonArray(items);
      }
      default -> {
        Map<String, Json> members = new LinkedHashMap<>();
        for (int i = random.nextInt(5); i > 0; i--) {
          members.put(randomString(random), randomValue(random, depth + 1));
        }
        yield new JsonObject(members);
      }
    };
  }

  /**
   * ASCII, controls, quotes, backslashes, 2- and 3-byte chars and surrogate pairs (Jackson refuses
   * lone ones).
   */
  private static String randomString(Random random) {
    return randomString(random, 12, true);
  }

  private static String randomString(Random random, int longest, boolean pairs) {
    StringBuilder b = new StringBuilder();
    for (int i = random.nextInt(longest); i > 0; i--) {
      int kind = random.nextInt(6);
      switch (pairs || kind != 4 ? kind : 5) {
        case 0 -> b.append((char) random.nextInt(0x20));
        case 1 -> b.append("\"\\/".charAt(random.nextInt(3)));
        case 2 -> b.append((char) (0x80 + random.nextInt(0x780)));
        case 3 -> b.append((char) (0x800 + random.nextInt(0xd800 - 0x800)));
        case 4 -> b.appendCodePoint(0x10000 + random.nextInt(0x100000));
        default -> b.append((char) (0x20 + random.nextInt(0x5f)));
      }
    }
    return b.toString();
  }
}
