package io.promptd.cli;

import io.promptd.catalog.links.InstallLinks;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.util.List;
import java.util.Map;

/**
 * Configuration as people keep it in files and type it in a shell: JSON with two-space indentation,
 * TOML strings, POSIX shell words.
 */
final class ConfigText {
  private ConfigText() {}

  /** {@code text} as a TOML basic string (the name is a bare key: --name allows no other). */
  static String toml(String text) {
    StringBuilder s = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> s.append("\\\"");
        case '\\' -> s.append("\\\\");
        case '\n' -> s.append("\\n");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            s.append(String.format("\\u%04X", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    return s.append('"').toString();
  }

  /** {@code args} as one POSIX shell command line, quoting only what needs it. */
  static String shell(List<String> args) {
    return InstallLinks.shell(args);
  }

  /** JSON with two-space indentation, as people keep configuration files. */
  static String json(Json value) {
    StringBuilder s = new StringBuilder();
    write(value, s, "");
    return s.toString();
  }

  private static void write(Json value, StringBuilder s, String indent) {
    switch (value) {
      case JsonObject o
      when !o.members().isEmpty() -> {
        s.append("{\n");
        int i = 0;
        for (Map.Entry<String, Json> e : o.members().entrySet()) {
          s.append(indent)
              .append("  ")
              .append(JsonCodec.write(new JsonString(e.getKey())))
              .append(": ");
          write(e.getValue(), s, indent + "  ");
          s.append(++i < o.members().size() ? ",\n" : "\n");
        }
        s.append(indent).append('}');
      }
      case JsonArray a
      when a.elements().stream().anyMatch(e -> e instanceof JsonObject) -> {
        s.append("[\n");
        for (int i = 0; i < a.elements().size(); i++) {
          s.append(indent).append("  ");
          write(a.elements().get(i), s, indent + "  ");
          s.append(i + 1 < a.elements().size() ? ",\n" : "\n");
        }
        s.append(indent).append(']');
      }
      default -> s.append(JsonCodec.write(value));
    }
  }
}
