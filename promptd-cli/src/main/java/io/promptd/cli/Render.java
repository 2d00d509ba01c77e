package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Human-readable output for the client verbs. */
final class Render {
  private static final int DESCRIPTION_WIDTH = 60;

  private Render() {}

  /** NAME, ARGUMENTS (required ones marked *), DESCRIPTION, as aligned columns. */
  static void promptTable(List<Json> prompts, PrintStream out) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"NAME", "ARGUMENTS", "DESCRIPTION"});
    for (Json p : prompts) {
      JsonObject o = p instanceof JsonObject obj ? obj : JsonObject.EMPTY;
      List<String> args = new ArrayList<>();
      for (Json a : o.array("arguments").orElse(JsonArray.EMPTY).elements()) {
        if (a instanceof JsonObject arg) {
          boolean required = arg.get("required") instanceof JsonBoolean b && b.value();
          args.add(arg.string("name").orElse("?") + (required ? "*" : ""));
        }
      }
      rows.add(new String[] {
        o.string("name").orElse("?"),
        String.join(", ", args),
        shorten(o.string("description").orElse(""))
      });
    }
    int nameWidth = rows.stream().mapToInt(r -> Columns.width(r[0])).max().orElse(4);
    int argWidth = rows.stream().mapToInt(r -> Columns.width(r[1])).max().orElse(9);
    for (String[] r : rows) {
      out.println(
          (pad(r[0], nameWidth) + "  " + pad(r[1], argWidth) + "  " + r[2]).stripTrailing());
    }
    out.println(prompts.size() + " prompt(s); * = required argument");
  }

  /** Each message under a role heading; non-text content summarized on one line. */
  static void messages(JsonObject result, PrintStream out) {
    result.string("description").ifPresent(d -> out.println("# " + d));
    for (Json m : result.array("messages").orElse(JsonArray.EMPTY).elements()) {
      JsonObject message = m instanceof JsonObject o ? o : JsonObject.EMPTY;
      out.println();
      out.println("── " + message.string("role").orElse("?") + " ──");
      out.println(content(message.object("content").orElse(JsonObject.EMPTY)));
    }
  }

  static void completion(JsonObject result, PrintStream out) {
    JsonObject c = result.object("completion").orElse(JsonObject.EMPTY);
    JsonArray values = c.array("values").orElse(JsonArray.EMPTY);
    for (Json v : values.elements()) {
      out.println(v instanceof JsonString s ? s.value() : v.toString());
    }
    if (c.get("hasMore") instanceof JsonBoolean b && b.value()) {
      out.println("… more (" + c.get("total") + " in all)");
    }
  }

  private static String content(JsonObject c) {
    String type = c.string("type").orElse("?");
    return switch (type) {
      case "text" -> c.string("text").orElse("");
      case "image", "audio" ->
        "[" + type + " " + c.string("mimeType").orElse("?") + ", "
            + base64Bytes(c.string("data").orElse("")) + " bytes]";
      case "resource" -> {
        JsonObject r = c.object("resource").orElse(JsonObject.EMPTY);
        String head = "[resource " + r.string("uri").orElse("?")
            + r.string("mimeType").map(t -> " (" + t + ")").orElse("") + "]";
        yield r.string("text")
            .map(t -> head + "\n" + t)
            .orElse(head + " " + base64Bytes(r.string("blob").orElse("")) + " bytes");
      }
      case "resource_link" ->
        "[link " + c.string("name").orElse("?") + " <" + c.string("uri").orElse("?") + ">]";
      default -> "[" + type + " content]";
    };
  }

  private static long base64Bytes(String data) {
    int padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
    return Math.max(0, data.length() * 3L / 4 - padding);
  }

  private static String shorten(String s) {
    String oneLine = s.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= DESCRIPTION_WIDTH
        ? oneLine
        : oneLine.substring(0, DESCRIPTION_WIDTH - 1) + "…";
  }

  private static String pad(String s, int width) {
    return Columns.pad(s, width);
  }
}
