package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Reads and writes {@link Json} values: strict JSON, duplicate keys refused, nesting bounded. */
@Stability(Stability.Tier.STABLE)
public final class JsonCodec {
  /**
   * How deep objects and arrays may nest; MCP messages need far less, hostile input may try far
   * more.
   */
  public static final int MAX_NESTING_DEPTH = 200;

  private JsonCodec() {}

  /**
   * Parses exactly one JSON value.
   *
   * @throws JsonException when {@code text} is not one valid JSON value
   */
  public static Json parse(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return JsonReader.read(utf8, 0, utf8.length);
  }

  /**
   * Parses exactly one JSON value from UTF-8 bytes.
   *
   * @throws JsonException when the bytes are not one valid JSON value in UTF-8
   */
  public static Json parse(byte[] utf8, int offset, int length) {
    return JsonReader.read(utf8, offset, length);
  }

  /** Writes {@code value} as compact JSON text on one line. */
  public static String write(Json value) {
    return JsonWriter.writeString(value);
  }

  /**
   * Writes {@code value} as compact UTF-8 JSON on one line, followed by {@code '\n'} when asked.
   */
  public static byte[] writeBytes(Json value, boolean newline) {
    return JsonWriter.write(value, newline);
  }

  /**
   * Encodes {@code value} as {@link #writeBytes} does, into a buffer from its position to its limit
   * that may be larger than the encoding (no copy to trim it): for a transport that writes it once
   * and lets it go.
   */
  public static ByteBuffer writeBuffer(Json value, boolean newline) {
    return JsonWriter.writeBuffer(value, newline);
  }
}
