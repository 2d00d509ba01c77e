package io.promptd.mcp.wire;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Completion;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Completion} on the wire: the {@code completion/complete} result, {@code completion} object
 * included.
 */
public final class CompletionWire {
  private CompletionWire() {}

  /** The result holding the completion; every version writes it the same way. */
  public static JsonObject encode(Completion c) {
    JsonObject.Builder b = JsonObject.builder().put("values", JsonArray.ofStrings(c.values()));
    Integer total = c.total();
    if (total != null) {
      b.put("total", (long) total);
    }
    return JsonObject.builder()
        .put("completion", b.put("hasMore", c.hasMore()).build())
        .build();
  }

  /** The completion a result holds; values past {@link Completion#MAX_VALUES} are dropped. */
  public static Completion decode(JsonObject result) {
    JsonObject c = result
        .object("completion")
        .orElseThrow(() -> new WireFormatException("result has no completion"));
    List<String> values = new ArrayList<>();
    for (Json v : c.array("values").orElse(JsonArray.EMPTY).elements()) {
      if (v instanceof JsonString s && values.size() < Completion.MAX_VALUES) {
        values.add(s.value());
      }
    }
    Integer total =
        c.get("total") instanceof JsonNumber n && n.isLong() ? (int) n.longValue() : null;
    return new Completion(values, total, c.get("hasMore") instanceof JsonBoolean b && b.value());
  }
}
