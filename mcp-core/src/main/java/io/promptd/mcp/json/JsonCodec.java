package io.promptd.mcp.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes {@link Json} values: strict JSON, duplicate keys refused, nesting bounded. */
public final class JsonCodec {
  /** How deep objects and arrays may nest; MCP messages need far less, hostile input may try far more. */
  public static final int MAX_NESTING_DEPTH = 200;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
          .build();

  private JsonCodec() {}

  /**
   * Parses exactly one JSON value.
   *
   * @throws JsonException when {@code text} is not one valid JSON value
   */
  public static Json parse(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      return parseDocument(p);
    } catch (JsonProcessingException e) {
      throw describe(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Parses exactly one JSON value from UTF-8 bytes.
   *
   * @throws JsonException when the bytes are not one valid JSON value in UTF-8
   */
  public static Json parse(byte[] utf8, int offset, int length) {
    try (JsonParser p = FACTORY.createParser(utf8, offset, length)) {
      return parseDocument(p);
    } catch (JsonProcessingException e) {
      throw describe(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code value} as compact JSON text on one line. */
  public static String write(Json value) {
    return JsonWriter.writeString(value);
  }

  /** Writes {@code value} as compact UTF-8 JSON on one line, followed by {@code '\n'} when asked. */
  public static byte[] writeBytes(Json value, boolean newline) {
    return JsonWriter.write(value, newline);
  }

  private static Json parseDocument(JsonParser p) throws IOException {
    JsonToken first = p.nextToken();
    if (first == null) {
      throw new JsonException("empty input: expected a JSON value");
    }
    Json value = readValue(p, first);
    if (p.nextToken() != null) {
      throw new JsonException("unexpected text after the JSON value" + at(p.currentLocation()));
    }
    return value;
  }

  private static Json readValue(JsonParser p, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> readObject(p);
      case START_ARRAY -> readArray(p);
      case VALUE_STRING -> new JsonString(p.getText());
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new JsonNumber(p.getDecimalValue());
      case VALUE_TRUE -> JsonBoolean.TRUE;
      case VALUE_FALSE -> JsonBoolean.FALSE;
      case VALUE_NULL -> JsonNull.INSTANCE;
      default -> throw new JsonException("unexpected token " + token + at(p.currentLocation()));
    };
  }

  private static JsonObject readObject(JsonParser p) throws IOException {
    Map<String, Json> members = new LinkedHashMap<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      members.put(name, readValue(p, p.nextToken()));
    }
    return new JsonObject(members);
  }

  private static JsonArray readArray(JsonParser p) throws IOException {
    List<Json> elements = new ArrayList<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      elements.add(readValue(p, t));
    }
    return new JsonArray(elements);
  }

  private static JsonException describe(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    return new JsonException(withoutJacksonInternals(message) + at(e.getLocation()));
  }

  /**
   * Jackson's messages name its own settings ({@code `StreamReadConstraints.getMaxNestingDepth()`}, {@code Source:
   * REDACTED (`StreamReadFeature...` disabled)}); the peer sees the problem and where, never our library's classes.
   */
  private static String withoutJacksonInternals(String message) {
    return message
        .replaceAll(" ?\\(start marker at \\[Source: [^\\]]*\\]\\)", "")
        .replaceAll(", from `[^`]*`", "")
        .replaceAll(": enable `[^`]*` to allow", "")
        .replaceAll("`[^`]*`", "a setting")
        .strip();
  }

  private static String at(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }
}
