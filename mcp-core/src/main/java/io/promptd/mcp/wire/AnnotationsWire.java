package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.wire.Fields.optional;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Role;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@link Annotations} on the wire; annotations with nothing to say are left out. */
public final class AnnotationsWire {
  private AnnotationsWire() {}

  /**
   * The annotations as {@code version} defines them, or null when none of their fields is set
   * there.
   */
  public static @Nullable JsonObject encode(@Nullable Annotations a, ProtocolVersion version) {
    if (a == null) {
      return null;
    }
    JsonObject.Builder b = JsonObject.builder();
    if (!a.audience().isEmpty()) {
      b.put("audience", JsonArray.ofStrings(a.audience().stream().map(Role::id).toList()));
    }
    Double priority = a.priority();
    if (priority != null) {
      b.put("priority", Json.of(priority.doubleValue()));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("lastModified", a.lastModified());
    }
    JsonObject out = b.build();
    return out.isEmpty() ? null : out;
  }

  /** The annotations of an {@code annotations} object; a priority outside 0 to 1 is dropped. */
  public static @Nullable Annotations decode(@Nullable JsonObject o) {
    if (o == null) {
      return null;
    }
    List<Role> audience = new ArrayList<>();
    for (Json r : o.array("audience").orElse(JsonArray.EMPTY).elements()) {
      if (r instanceof JsonString s) {
        audience.add(Fields.role(s.value()));
      }
    }
    Double priority = o.get("priority") instanceof JsonNumber n ? n.doubleValue() : null;
    if (priority != null && !(priority >= 0 && priority <= 1)) {
      priority = null;
    }
    return new Annotations(audience, priority, optional(o, "lastModified"));
  }
}
