package io.promptd.mcp.json;

import io.promptd.mcp.api.Stability;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON array.
 *
 * @param elements the elements, in order
 */
@Stability(Stability.Tier.STABLE)
public record JsonArray(List<Json> elements) implements Json {
  /** The empty array. */
  public static final JsonArray EMPTY = new JsonArray(List.of());

  /** Copies the elements. */
  public JsonArray {
    elements = List.copyOf(elements);
  }

  /** Returns an array of strings. */
  public static JsonArray ofStrings(List<String> values) {
    List<Json> out = new ArrayList<>(values.size());
    for (String v : values) {
      out.add(new JsonString(v));
    }
    return new JsonArray(out);
  }

  /** The number of elements. */
  public int size() {
    return elements.size();
  }

  /** The element at {@code index}. */
  public Json get(int index) {
    return elements.get(index);
  }
}
