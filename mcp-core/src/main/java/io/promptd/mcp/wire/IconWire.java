package io.promptd.mcp.wire;

import static io.promptd.mcp.wire.Fields.object;
import static io.promptd.mcp.wire.Fields.optional;
import static io.promptd.mcp.wire.Fields.required;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Icon;
import java.util.ArrayList;
import java.util.List;

/** {@link Icon} lists on the wire (2025-11-25 and later; callers leave them out before). */
public final class IconWire {
  private IconWire() {}

  /** The icons as a JSON array. */
  public static JsonArray encode(List<Icon> icons) {
    List<Json> out = new ArrayList<>(icons.size());
    for (Icon i : icons) {
      JsonObject.Builder b = JsonObject.builder().put("src", i.src()).put("mimeType", i.mimeType());
      if (!i.sizes().isEmpty()) {
        b.put("sizes", JsonArray.ofStrings(i.sizes()));
      }
      out.add(b.put("theme", i.theme()).build());
    }
    return new JsonArray(out);
  }

  /** The icons of an {@code icons} array; non-string sizes and unknown themes are dropped. */
  public static List<Icon> decode(JsonArray array) {
    List<Icon> icons = new ArrayList<>();
    for (Json i : array.elements()) {
      JsonObject icon = object(i, "icon");
      List<String> sizes = new ArrayList<>();
      for (Json s : icon.array("sizes").orElse(JsonArray.EMPTY).elements()) {
        if (s instanceof JsonString str) {
          sizes.add(str.value());
        }
      }
      String theme = optional(icon, "theme");
      icons.add(new Icon(
          required(icon, "src"),
          optional(icon, "mimeType"),
          sizes,
          "light".equals(theme) || "dark".equals(theme) ? theme : null));
    }
    return icons;
  }
}
