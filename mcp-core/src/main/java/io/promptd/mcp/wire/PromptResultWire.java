package io.promptd.mcp.wire;

import static io.promptd.mcp.wire.Fields.object;
import static io.promptd.mcp.wire.Fields.optional;
import static io.promptd.mcp.wire.Fields.required;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Role;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link GetPromptResult} and its {@link PromptMessage}s on the wire, as {@code prompts/get}
 * answers.
 */
public final class PromptResultWire {
  private PromptResultWire() {}

  /** The result as {@code version} defines it. */
  public static JsonObject encode(GetPromptResult r, ProtocolVersion version) {
    List<Json> messages = new ArrayList<>(r.messages().size());
    for (PromptMessage m : r.messages()) {
      messages.add(JsonObject.builder()
          .put("role", m.role().id())
          .put("content", ContentWire.encode(m.content(), version))
          .build());
    }
    return JsonObject.builder()
        .put("description", r.description())
        .put("messages", new JsonArray(messages))
        .put("_meta", r.meta())
        .build();
  }

  /** The result a {@code prompts/get} answer holds; it must have {@code messages}. */
  public static GetPromptResult decode(JsonObject result) {
    List<PromptMessage> messages = new ArrayList<>();
    JsonArray raw = result
        .array("messages")
        .orElseThrow(() -> new WireFormatException("result has no messages"));
    for (Json m : raw.elements()) {
      JsonObject message = object(m, "message");
      Role role = Fields.role(required(message, "role"));
      messages.add(new PromptMessage(role, ContentWire.decode(message.get("content"))));
    }
    return new GetPromptResult(
        optional(result, "description"), messages, result.object("_meta").orElse(null));
  }
}
