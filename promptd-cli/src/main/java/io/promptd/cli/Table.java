package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.Console;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Rows a command prints ({@code history}, {@code label list}, {@code usage}), in the form its
 * reader wants: aligned columns with short digests for a person at a terminal, tab-separated lines
 * for scripts ({@code --tsv}, and whenever the output is not a terminal, as before), or JSON
 * ({@code --json}: one array of objects keyed by the columns' lower-case names; several tables make
 * one object of such arrays).
 */
final class Table {
  /** How rows are printed. */
  enum Format {
    /** Tab-separated, a header line first. */
    TSV,
    /** Columns aligned with spaces, SHA-256 digests cut to 12 digits. */
    ALIGNED,
    /** JSON. */
    JSON;

    /** The format a flag names ({@code --tsv}, {@code --table}, {@code --json}), or null. */
    static @Nullable Format ofFlag(String flag) {
      return switch (flag) {
        case "--tsv" -> TSV;
        case "--table" -> ALIGNED;
        case "--json" -> JSON;
        default -> null;
      };
    }

    /** Aligned when the output is a terminal, else tab-separated. */
    static Format forOutput() {
      return terminal() ? ALIGNED : TSV;
    }
  }

  /** The flags that choose a format, for usage texts. */
  static final String FLAGS = "[--table|--tsv|--json]";

  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");
  /** The digits of a digest an aligned table shows: enough to tell versions apart by eye. */
  private static final int SHORT_DIGEST = 12;

  private final String key;
  private final List<String> header;
  private final List<List<Object>> rows = new ArrayList<>();

  /**
   * A table whose JSON name is {@code key} (used when a command prints several), with its column
   * names.
   */
  Table(String key, String... header) {
    this.key = key;
    this.header = List.of(header);
  }

  /**
   * Adds a row: each cell is printed as its string, and in JSON an integer as a number, anything
   * else as a string.
   */
  Table row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          "a row of " + cells.length + " cells for " + header.size() + " columns");
    }
    rows.add(List.of(cells));
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Prints {@code tables} in {@code format}: one after the other, a blank line between them. */
  static void print(PrintStream out, Format format, List<Table> tables) {
    if (format == Format.JSON) {
      if (tables.size() == 1) {
        out.println(JsonCodec.write(tables.getFirst().json()));
      } else {
        JsonObject.Builder all = JsonObject.builder();
        tables.forEach(t -> all.put(t.key, t.json()));
        out.println(JsonCodec.write(all.build()));
      }
      return;
    }
    boolean first = true;
    for (Table t : tables) {
      if (!first) {
        out.println();
      }
      first = false;
      if (format == Format.TSV) {
        out.println(String.join("\t", t.header));
        t.rows.forEach(
            r -> out.println(String.join("\t", r.stream().map(String::valueOf).toList())));
      } else {
        t.aligned(out);
      }
    }
  }

  private void aligned(PrintStream out) {
    List<List<String>> shown = new ArrayList<>();
    shown.add(header);
    for (List<Object> r : rows) {
      shown.add(r.stream()
          .map(String::valueOf)
          .map(c -> DIGEST.matcher(c).matches() ? c.substring(0, SHORT_DIGEST) : c)
          .toList());
    }
    int[] widths = new int[header.size()];
    for (List<String> r : shown) {
      for (int i = 0; i < r.size(); i++) {
        widths[i] = Math.max(widths[i], Columns.width(r.get(i)));
      }
    }
    for (List<String> r : shown) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        String c = r.get(i);
        line.append(c);
        if (i < r.size() - 1) {
          line.repeat(' ', widths[i] - Columns.width(c) + 2);
        }
      }
      out.println(line);
    }
  }

  private JsonArray json() {
    List<Json> out = new ArrayList<>();
    for (List<Object> r : rows) {
      JsonObject.Builder b = JsonObject.builder();
      for (int i = 0; i < header.size(); i++) {
        Object c = r.get(i);
        b.put(
            header.get(i).toLowerCase(Locale.ROOT),
            c instanceof Long || c instanceof Integer
                ? Json.of(((Number) c).longValue())
                : Json.of(String.valueOf(c)));
      }
      out.add(b.build());
    }
    return new JsonArray(out);
  }

  /** Whether this process's input and output are a terminal (a person reads it). */
  @SuppressWarnings("SystemConsoleNull") // compiled for 21, where null means no terminal; 22+ asked
  private static boolean terminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      // JDK 22+: a console may exist for redirected streams; isTerminal tells.
      return (boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 21: a console exists only for a terminal
    }
  }
}
