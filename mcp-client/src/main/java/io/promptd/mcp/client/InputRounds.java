package io.promptd.mcp.client;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Methods;
import java.io.IOException;
import java.util.Map;

/**
 * The client's side of 2026-07-28 multi round-trip requests: a request that declares form
 * elicitation, and for each {@code input_required} answer, the forms shown through a
 * {@link FormHandler} and the request sent again with {@code inputResponses} and the exact
 * {@code requestState}, on a new id, until the result is complete.
 */
final class InputRounds {
  private static final String CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

  private InputRounds() {}

  static JsonObject run(McpClient client, String method, JsonObject params, FormHandler forms)
      throws IOException {
    JsonObject meta = params.object("_meta").orElse(JsonObject.EMPTY).toBuilder()
        .put(
            CAPABILITIES,
            JsonObject.builder()
                .put(
                    "elicitation",
                    JsonObject.builder().put("form", JsonObject.EMPTY).build())
                .build())
        .build();
    JsonObject original = params.toBuilder().put("_meta", meta).build();
    JsonObject next = original;
    for (int round = 1; ; round++) {
      JsonObject result = client.call(method, next);
      if (!result.string("resultType").orElse("complete").equals("input_required")) {
        return result;
      }
      if (round >= McpClient.MAX_ROUNDS) {
        throw new MalformedResultException("the server still needed input after "
            + McpClient.MAX_ROUNDS + " rounds of " + method + "; giving up");
      }
      JsonObject.Builder responses = JsonObject.builder();
      for (Map.Entry<String, Json> e :
          result.object("inputRequests").orElse(JsonObject.EMPTY).members().entrySet()) {
        responses.put(e.getKey(), answer(e.getKey(), e.getValue(), forms));
      }
      JsonObject.Builder retry = original.toBuilder().put("inputResponses", responses.build());
      if (result.get("requestState") instanceof JsonString state) {
        retry.put("requestState", state); // echoed exactly, never read
      }
      next = retry.build();
    }
  }

  private static JsonObject answer(String key, Json request, FormHandler forms) throws IOException {
    if (!(request instanceof JsonObject r)
        || !r.string("method").orElse("").equals(Methods.ELICITATION_CREATE)) {
      throw new MalformedResultException("the server asked for input '" + key
          + "' this client did not declare it" + " can give (only form elicitation)");
    }
    JsonObject params = r.object("params").orElse(JsonObject.EMPTY);
    if (!params.string("mode").orElse("form").equals("form")) {
      throw new MalformedResultException("the server asked for input '" + key + "' in mode '"
          + params.string("mode").orElse("") + "'; this client declared form elicitation only");
    }
    return ServerRequests.result(params, forms);
  }
}
