package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_11_25;
import static io.promptd.mcp.wire.Fields.object;
import static io.promptd.mcp.wire.Fields.optional;
import static io.promptd.mcp.wire.Fields.required;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Prompt} and its {@link PromptArgument}s on the wire, as {@code prompts/list} carries them.
 */
public final class PromptWire {
  private PromptWire() {}

  /** The prompt as {@code version} defines it. */
  public static JsonObject encode(Prompt p, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("name", p.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", p.title());
    }
    b.put("description", p.description());
    if (!p.arguments().isEmpty()) {
      List<Json> args = new ArrayList<>(p.arguments().size());
      for (PromptArgument a : p.arguments()) {
        args.add(argument(a, version));
      }
      b.put("arguments", new JsonArray(args));
    }
    if (version.atLeast(V2025_11_25) && !p.icons().isEmpty()) {
      b.put("icons", IconWire.encode(p.icons()));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", p.meta());
    }
    return b.build();
  }

  /** The prompt a JSON object holds. */
  public static Prompt decode(Json json) {
    JsonObject o = object(json, "prompt");
    List<PromptArgument> args = new ArrayList<>();
    for (Json a : o.array("arguments").orElse(JsonArray.EMPTY).elements()) {
      args.add(argument(a));
    }
    return new Prompt(
        required(o, "name"),
        optional(o, "title"),
        optional(o, "description"),
        args,
        IconWire.decode(o.array("icons").orElse(JsonArray.EMPTY)),
        o.object("_meta").orElse(null));
  }

  private static JsonObject argument(PromptArgument a, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("name", a.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", a.title());
    }
    b.put("description", a.description());
    if (a.required()) {
      b.put("required", true);
    }
    return b.build();
  }

  private static PromptArgument argument(Json json) {
    JsonObject arg = object(json, "prompt argument");
    return new PromptArgument(
        required(arg, "name"),
        optional(arg, "title"),
        optional(arg, "description"),
        arg.get("required") instanceof JsonBoolean b && b.value());
  }
}
