package io.promptd.bench;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Walks a promptd HTTP server's 2026-07-28 {@code prompts/list} from the first page to the last
 * (following {@code nextCursor}), every answer checked, and prints {@code listed N prompts in P
 * pages}. With EXPECTED it exits 1 unless exactly that many distinct prompts were listed; with
 * {@code --absent NAME} (repeatable) it exits 1 if NAME was listed.
 *
 * <pre>java -cp … io.promptd.bench.ListWalk URL [EXPECTED] [--absent NAME]…</pre>
 */
public final class ListWalk {
  private static final int MAX_PAGES = 100_000;

  private ListWalk() {}

  public static void main(String[] args) throws Exception {
    URI uri = URI.create(args[0]);
    long expected = -1;
    Set<String> absent = new HashSet<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--absent") && i + 1 < args.length) {
        absent.add(args[++i]);
      } else {
        expected = Long.parseLong(args[i]);
      }
    }
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
    Set<String> names = new HashSet<>();
    long duplicates = 0;
    int pages = 0;
    String cursor = null;
    long t0 = System.nanoTime();
    try {
      do {
        long id = pages + 1L;
        String members =
            cursor == null ? "" : "\"cursor\":" + JsonCodec.write(new JsonString(cursor));
        JsonObject result = SoakWire.call(
            http,
            uri,
            id,
            "prompts/list page " + (pages + 1),
            SoakWire.modern(id, "prompts/list", members),
            "MCP-Protocol-Version",
            SoakWire.MODERN,
            "Mcp-Method",
            "prompts/list");
        pages++;
        for (Json p : result.array("prompts").orElse(JsonArray.EMPTY).elements()) {
          if (p instanceof JsonObject o && !names.add(o.string("name").orElse(""))) {
            duplicates++;
          }
        }
        cursor = result.string("nextCursor").orElse(null);
      } while (cursor != null && pages < MAX_PAGES);
    } catch (SoakWire.Failure e) {
      System.out.println("list walk: failed after " + pages + " page(s): " + e.getMessage());
      System.exit(1);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("listed " + names.size() + " prompts in " + pages + " pages (" + ms + " ms"
        + (duplicates > 0 ? ", " + duplicates + " listed twice" : "") + ")");
    boolean ok = duplicates == 0 && cursor == null && (expected < 0 || names.size() == expected);
    for (String name : absent) {
      if (names.contains(name)) {
        System.out.println("list walk: '" + name + "' is listed; it should not be");
        ok = false;
      }
    }
    if (expected >= 0 && names.size() != expected) {
      System.out.println("list walk: expected " + expected + " prompts");
    }
    System.exit(ok ? 0 : 1);
  }
}
