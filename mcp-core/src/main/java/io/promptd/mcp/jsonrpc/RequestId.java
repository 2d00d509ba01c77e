package io.promptd.mcp.jsonrpc;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonString;

/**
 * A request id: a string or an integer, never null (MCP forbids null ids).
 *
 * @param value a {@link JsonString} or an integral {@link JsonNumber}
 */
@Stability(Stability.Tier.STABLE)
public record RequestId(Json value) {
  /**
   * Checks that the id is a string or an integer. {@code 7}, {@code 7.0} and {@code 7e0} are one id
   * (one key for in-flight requests and cancellation): {@link JsonNumber} keeps every integer in
   * the same form.
   */
  public RequestId {
    requireNonNull(value, "value");
    if (!(value instanceof JsonString) && !(value instanceof JsonNumber n && n.isLong())) {
      throw new IllegalArgumentException(
          "request id must be a string or an integer, not " + value.typeName());
    }
  }

  /** A string id. */
  public static RequestId of(String id) {
    return new RequestId(new JsonString(id));
  }

  /** An integer id. */
  public static RequestId of(long id) {
    return new RequestId(JsonNumber.of(id));
  }

  @Override
  public String toString() {
    // A number here is always a long, which JsonNumber prints plainly.
    return value instanceof JsonString s ? '"' + s.value() + '"' : value.toString();
  }
}
