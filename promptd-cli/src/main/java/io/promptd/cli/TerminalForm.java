package io.promptd.cli;

import io.promptd.mcp.client.FormHandler;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A server's form asked on the terminal, one field per line: the field's title (or name), its
 * description, its choices numbered (type the number or the value), its default in brackets (Enter
 * keeps it), and {@code *} for a required field. Wrong input is asked again; end of input (Ctrl-D)
 * cancels the form.
 */
final class TerminalForm implements FormHandler {
  private final BufferedReader in;
  private final PrintStream out;

  TerminalForm(BufferedReader in, PrintStream out) {
    this.in = in;
    this.out = out;
  }

  /**
   * Whether standard input is a terminal (Linux: what {@code /proc/self/fd/0} points at), so that a
   * person can answer. {@code System.console()} cannot tell on every JDK since 22; elsewhere than
   * Linux this says no, and the server's -32602 says what is missing.
   */
  static boolean stdinIsATerminal() {
    try {
      String in = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
      return in.startsWith("/dev/pts/") || in.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  @Override
  public Answer answer(String message, JsonObject requestedSchema) throws IOException {
    out.println(message);
    List<String> required = new ArrayList<>();
    requestedSchema
        .array("required")
        .ifPresent(a -> a.elements().forEach(e -> {
          if (e instanceof JsonString s) {
            required.add(s.value());
          }
        }));
    JsonObject.Builder content = JsonObject.builder();
    for (Map.Entry<String, Json> e :
        requestedSchema.object("properties").orElse(JsonObject.EMPTY).members().entrySet()) {
      JsonObject field = e.getValue() instanceof JsonObject o ? o : JsonObject.EMPTY;
      Json value = ask(e.getKey(), field, required.contains(e.getKey()));
      if (ended) {
        out.println();
        return Answer.cancel();
      }
      if (value != null) {
        content.put(e.getKey(), value);
      }
    }
    return Answer.accept(content.build());
  }

  /** Set when input ends while a field is asked: the form is cancelled. */
  private boolean ended;

  /**
   * The field's value, or null when left empty (optional, no default) or when input ended
   * ({@link #ended}).
   */
  private @Nullable Json ask(String name, JsonObject field, boolean required) throws IOException {
    String type = field.string("type").orElse("string");
    List<String> choices = choices(field);
    String label = field.string("title").orElse(name) + (required ? " *" : "");
    field.string("description").ifPresent(d -> out.println("  " + d));
    List<String> labels = labels(field, choices);
    for (int i = 0; i < choices.size(); i++) {
      out.println("  " + (i + 1) + ") " + labels.get(i));
    }
    Json fallback = field.get("default");
    while (true) {
      out.print(label + (fallback == null ? "" : " [" + show(fallback) + "]") + ": ");
      out.flush();
      String line = in.readLine();
      if (line == null) {
        ended = true;
        return null;
      }
      line = line.strip();
      if (line.isEmpty()) {
        if (fallback != null) {
          return fallback;
        }
        if (!required) {
          return null;
        }
        out.println("  a value is required");
        continue;
      }
      Json value = parse(line, type, choices, labels);
      if (value != null) {
        return value;
      }
      out.println("  " + expected(type, choices));
    }
  }

  private static @Nullable Json parse(
      String line, String type, List<String> choices, List<String> labels) {
    if (!choices.isEmpty()) {
      if (line.matches("\\d{1,4}")) {
        int n = Integer.parseInt(line);
        return n >= 1 && n <= choices.size() ? new JsonString(choices.get(n - 1)) : null;
      }
      for (int i = 0; i < choices.size(); i++) { // the value, or its title
        if (choices.get(i).equalsIgnoreCase(line) || labels.get(i).equalsIgnoreCase(line)) {
          return new JsonString(choices.get(i));
        }
      }
      return null;
    }
    return switch (type) {
      case "boolean" ->
        switch (line.toLowerCase(Locale.ROOT)) {
          case "y", "yes", "true" -> JsonBoolean.TRUE;
          case "n", "no", "false" -> JsonBoolean.FALSE;
          default -> null;
        };
      case "integer", "number" -> {
        try {
          BigDecimal n = new BigDecimal(line);
          yield type.equals("integer") && n.stripTrailingZeros().scale() > 0
              ? null
              : JsonNumber.of(n);
        } catch (NumberFormatException e) {
          yield null;
        }
      }
      default -> new JsonString(line);
    };
  }

  private static String expected(String type, List<String> choices) {
    if (!choices.isEmpty()) {
      return "type one of the numbers above, or the value";
    }
    return switch (type) {
      case "boolean" -> "type yes or no";
      case "integer" -> "type a whole number";
      case "number" -> "type a number";
      default -> "type a value";
    };
  }

  private static List<String> choices(JsonObject field) {
    List<String> out = new ArrayList<>();
    field.array("enum").orElse(JsonArray.EMPTY).elements().forEach(e -> {
      if (e instanceof JsonString s) {
        out.add(s.value());
      }
    });
    field.array("oneOf").orElse(JsonArray.EMPTY).elements().forEach(e -> {
      if (e instanceof JsonObject o) {
        o.string("const").ifPresent(out::add);
      }
    });
    return out;
  }

  /** What each choice is shown as: its title ({@code oneOf}), else the value itself. */
  private static List<String> labels(JsonObject field, List<String> choices) {
    List<String> labels = new ArrayList<>(choices);
    field.array("oneOf").orElse(JsonArray.EMPTY).elements().forEach(e -> {
      if (e instanceof JsonObject o
          && o.get("const") instanceof JsonString c
          && o.get("title") instanceof JsonString t) {
        int i = choices.indexOf(c.value());
        if (i >= 0) {
          labels.set(i, t.value());
        }
      }
    });
    return labels;
  }

  private static String show(Json value) {
    return value instanceof JsonString s ? s.value() : JsonCodec.write(value);
  }
}
