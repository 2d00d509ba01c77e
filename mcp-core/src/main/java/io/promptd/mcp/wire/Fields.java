package io.promptd.mcp.wire;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Role;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reading fields the way every decoder here does: required ones strictly, optional ones leniently.
 */
final class Fields {
  private Fields() {}

  static JsonObject object(@Nullable Json json, String what) {
    if (json instanceof JsonObject o) {
      return o;
    }
    throw new WireFormatException(what + " must be an object");
  }

  static String required(JsonObject o, String field) {
    return o.string(field)
        .orElseThrow(() -> new WireFormatException("missing string \"" + field + "\""));
  }

  static @Nullable String optional(JsonObject o, String field) {
    return o.string(field).orElse(null);
  }

  static Role role(String role) {
    try {
      return Role.valueOf(role.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new WireFormatException("unknown role '" + role + "'");
    }
  }
}
