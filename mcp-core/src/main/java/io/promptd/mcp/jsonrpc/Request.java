package io.promptd.mcp.jsonrpc;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;

/**
 * A request: it expects exactly one response carrying the same id.
 *
 * @param id the id, never null
 * @param method the method name
 * @param params the parameters; the empty object when the message had none
 */
@Stability(Stability.Tier.STABLE)
public record Request(RequestId id, String method, JsonObject params) implements Message {
  /** Checks the fields. */
  public Request {
    requireNonNull(id, "id");
    requireNonNull(method, "method");
    requireNonNull(params, "params");
  }
}
