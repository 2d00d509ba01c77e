package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.ResultResponse;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns text into {@link Incoming} messages and messages into text. The only place JSON-RPC framing
 * lives.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class MessageCodec {
  private static final JsonString VERSION = new JsonString("2.0");

  private MessageCodec() {}

  /**
   * Decodes one unit of input: a message, a batch, or the error it deserves. Never throws for bad
   * input.
   */
  public static Incoming decode(String text) {
    Json json;
    try {
      json = JsonCodec.parse(text);
    } catch (JsonException e) {
      return parseError(e.getMessage());
    }
    return decode(json);
  }

  /** Decodes UTF-8 bytes; see {@link #decode(String)}. */
  public static Incoming decode(byte[] utf8, int offset, int length) {
    Json json;
    try {
      json = JsonCodec.parse(utf8, offset, length);
    } catch (JsonException e) {
      return parseError(e.getMessage());
    }
    return decode(json);
  }

  /** Decodes a parsed JSON value. */
  public static Incoming decode(Json json) {
    if (json instanceof JsonArray array) {
      if (array.size() == 0) {
        return invalid(null, "Invalid request: empty batch", true);
      }
      List<Incoming> items = new ArrayList<>(array.size());
      for (Json element : array.elements()) {
        items.add(decodeOne(element));
      }
      return new Incoming.Batch(items);
    }
    return decodeOne(json);
  }

  /**
   * What a unit of input longer than {@code maxBytes}, skipped unread, deserves: -32600 with no
   * readable id.
   */
  public static Incoming tooLong(int maxBytes) {
    return invalid(
        null, "Invalid request: message longer than " + maxBytes + " bytes was skipped", true);
  }

  /** Encodes a message as one line of compact JSON, without the newline. */
  public static String encode(Message message) {
    return JsonCodec.write(toJson(message));
  }

  /** Encodes a message as UTF-8 JSON followed by {@code '\n'}, ready for a stdio stream. */
  public static byte[] encodeLine(Message message) {
    return JsonCodec.writeBytes(toJson(message), true);
  }

  /** The JSON form of a message. */
  public static JsonObject toJson(Message message) {
    JsonObject.Builder b = JsonObject.builder().put("jsonrpc", VERSION);
    switch (message) {
      case Request r ->
        b.put("id", r.id().value()).put("method", r.method()).put("params", r.params());
      case Notification n -> b.put("method", n.method()).put("params", n.params());
      case ResultResponse r -> b.put("id", r.id().value()).put("result", r.result());
      case ErrorResponse e -> {
        RequestId id = e.id();
        b.put("id", id == null ? JsonNull.INSTANCE : id.value());
        b.put(
            "error",
            JsonObject.builder()
                .put("code", e.code())
                .put("message", e.message())
                .put("data", e.data())
                .build());
      }
    }
    return b.build();
  }

  private static Incoming decodeOne(Json json) {
    if (!(json instanceof JsonObject o)) {
      return invalid(null, "Invalid request: expected a JSON object, got " + json.typeName(), true);
    }
    Json rawId = o.get("id");
    RequestId id = readableId(rawId);
    boolean hasMethod = o.has("method");
    boolean looksLikeRequest = hasMethod ? o.has("id") : !o.has("result") && !o.has("error");
    if (!VERSION.equals(o.get("jsonrpc"))) {
      return invalid(id, "Invalid request: \"jsonrpc\" must be \"2.0\"", looksLikeRequest);
    }
    if (hasMethod) {
      return decodeCall(o, rawId, id);
    }
    if (id != null && (o.has("result") || o.has("error"))) {
      return decodeResponse(o, id);
    }
    // A response whose id could not be read is still a response: answering it could start an
    // endless exchange.
    return invalid(
        id,
        "Invalid request: a message needs \"method\" (request, notification) or \"result\"/\"error\"",
        looksLikeRequest);
  }

  private static Incoming decodeCall(JsonObject o, @Nullable Json rawId, @Nullable RequestId id) {
    boolean isRequest = o.has("id");
    if (!(o.get("method") instanceof JsonString method)) {
      return invalid(id, "Invalid request: \"method\" must be a string", isRequest);
    }
    if (isRequest && id == null) {
      String why = rawId == null || rawId == JsonNull.INSTANCE
          ? "must not be null"
          : "must be a string or an integer";
      return invalid(null, "Invalid request: \"id\" " + why, true);
    }
    Json params = o.get("params");
    if (params != null && !(params instanceof JsonObject)) {
      return new Incoming.Invalid(
          new ErrorResponse(
              id, ErrorCodes.INVALID_PARAMS, "Invalid params: \"params\" must be an object", null),
          isRequest);
    }
    JsonObject p = params == null ? JsonObject.EMPTY : (JsonObject) params;
    if (id != null) {
      return new Incoming.Single(new Request(id, method.value(), p));
    }
    return new Incoming.Single(new Notification(method.value(), (JsonObject) params));
  }

  private static Incoming decodeResponse(JsonObject o, RequestId id) {
    if (o.get("result") instanceof JsonObject result) {
      return new Incoming.Single(new ResultResponse(id, result));
    }
    if (o.get("error") instanceof JsonObject error
        && error.get("code") instanceof JsonNumber code
        && code.isLong()
        && error.get("message") instanceof JsonString message) {
      return new Incoming.Single(
          new ErrorResponse(id, (int) code.longValue(), message.value(), error.get("data")));
    }
    return invalid(
        id,
        "Invalid response: \"result\" must be an object, \"error\" needs code and message",
        false);
  }

  private static @Nullable RequestId readableId(@Nullable Json raw) {
    if (raw instanceof JsonString || (raw instanceof JsonNumber n && n.isLong())) {
      return new RequestId(raw);
    }
    return null;
  }

  private static Incoming parseError(String detail) {
    return new Incoming.Invalid(
        new ErrorResponse(null, ErrorCodes.PARSE_ERROR, "Parse error: " + detail, null), true);
  }

  private static Incoming invalid(@Nullable RequestId id, String message, boolean answerable) {
    return new Incoming.Invalid(
        new ErrorResponse(id, ErrorCodes.INVALID_REQUEST, message, null), answerable);
  }
}
