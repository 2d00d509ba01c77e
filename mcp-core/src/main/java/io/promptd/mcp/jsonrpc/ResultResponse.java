package io.promptd.mcp.jsonrpc;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;

/**
 * A successful response.
 *
 * @param id the id of the request answered
 * @param result the result object
 */
@Stability(Stability.Tier.STABLE)
public record ResultResponse(RequestId id, JsonObject result) implements Response {
  /** Checks the fields. */
  public ResultResponse {
    requireNonNull(id, "id");
    requireNonNull(result, "result");
  }
}
