package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;

/**
 * An immutable JSON value.
 *
 * <p>Parse with {@link JsonCodec#parse(String)}, write with {@link JsonCodec#write(Json)}.
 */
@Stability(Stability.Tier.STABLE)
public sealed interface Json
    permits JsonObject, JsonArray, JsonString, JsonNumber, JsonBoolean, JsonNull {

  /** Returns a JSON string. */
  static JsonString of(String value) {
    return new JsonString(value);
  }

  /** Returns a JSON integer. */
  static JsonNumber of(long value) {
    return JsonNumber.of(value);
  }

  /** Returns a JSON number. */
  static JsonNumber of(double value) {
    return JsonNumber.of(value);
  }

  /** Returns a JSON boolean. */
  static JsonBoolean of(boolean value) {
    return value ? JsonBoolean.TRUE : JsonBoolean.FALSE;
  }

  /**
   * Returns a short name of this value's JSON type, for error messages: "object", "string", ....
   */
  default String typeName() {
    return switch (this) {
      case JsonObject o -> "object";
      case JsonArray a -> "array";
      case JsonString s -> "string";
      case JsonNumber n -> "number";
      case JsonBoolean b -> "boolean";
      case JsonNull n -> "null";
    };
  }
}
