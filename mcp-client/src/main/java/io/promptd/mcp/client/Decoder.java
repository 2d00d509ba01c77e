package io.promptd.mcp.client;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.wire.CompletionWire;
import io.promptd.mcp.wire.PromptResultWire;
import io.promptd.mcp.wire.PromptWire;
import io.promptd.mcp.wire.WireFormatException;
import java.util.function.Supplier;

/**
 * Reads protocol records out of server results through the shared wire decoders, leniently where
 * the spec allows (unknown fields are ignored) and strictly where a field is required: a malformed
 * result is a {@link MalformedResultException}.
 */
final class Decoder {
  private Decoder() {}

  static Prompt prompt(Json json) {
    return malformedIfWrong(() -> PromptWire.decode(json));
  }

  static GetPromptResult getPromptResult(JsonObject result) {
    return malformedIfWrong(() -> PromptResultWire.decode(result));
  }

  static Completion completion(JsonObject result) {
    return malformedIfWrong(() -> CompletionWire.decode(result));
  }

  private static <T> T malformedIfWrong(Supplier<T> decode) {
    try {
      return decode.get();
    } catch (WireFormatException e) {
      throw new MalformedResultException(e.getMessage());
    }
  }
}
