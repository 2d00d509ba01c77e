package io.promptd.mcp.jsonrpc;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * A one-way message; the receiver never answers it.
 *
 * @param method the method name
 * @param params the parameters, or null to omit {@code params} on the wire
 */
@Stability(Stability.Tier.STABLE)
public record Notification(String method, @Nullable JsonObject params) implements Message {
  /** Checks the fields. */
  public Notification {
    requireNonNull(method, "method");
  }

  /** The parameters, or the empty object when there are none. */
  public JsonObject paramsOrEmpty() {
    return params == null ? JsonObject.EMPTY : params;
  }
}
