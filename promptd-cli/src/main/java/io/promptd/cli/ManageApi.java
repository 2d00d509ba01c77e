package io.promptd.cli;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.spi.Caller;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.UsageReport;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The management API ({@code serve --store URL --http --manage}): the store's versions, labels and diffs as JSON,
 * label moves, and each prompt's uses (what {@code promptd usage} reads, per client and outcome too), at {@code /manage/v1/...} behind the server's OAuth resource server. A protected label moves only for
 * a token holding its scope. Answers are JSON; an error is {@code {"error": MESSAGE}} with 400, 401, 403, 404, 405,
 * 409, 413 or 503, never a stack trace.
 */
final class ManageApi {
  static final String BASE = "/manage/v1";
  static final String OPENAPI = BASE + "/openapi.json";
  /** The paths the API answers, each described in {@code manage-openapi.json}. */
  static final List<String> PATHS = List.of(
      BASE + "/prompts",
      BASE + "/versions",
      BASE + "/diff",
      BASE + "/labels",
      BASE + "/usage",
      OPENAPI);
  /** The largest request body read. */
  static final int MAX_BODY = 64 * 1024;

  private static final String JSON = "application/json";

  private final PromptStore store;
  private final StoreDatabase database;
  private final byte[] openapi;

  private ManageApi(PromptStore store, StoreDatabase database, byte[] openapi) {
    this.store = store;
    this.database = database;
    this.openapi = openapi;
  }

  /**
   * Mounts the API's paths on {@code builder}, behind its authentication, reading and moving in {@code store} and
   * reading usage from {@code database} (the store's).
   */
  static void mountOn(HttpTransportBuilder builder, PromptStore store, StoreDatabase database) {
    ManageApi api;
    try {
      api = new ManageApi(store, database, openapi());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    builder.authenticatedMount(BASE + "/prompts", api.get(api::prompts));
    builder.authenticatedMount(BASE + "/versions", api.get(api::versions));
    builder.authenticatedMount(BASE + "/diff", api.get(api::diff));
    builder.authenticatedMount(BASE + "/labels", api::labels);
    builder.authenticatedMount(BASE + "/usage", api.get(api::usage));
    builder.authenticatedMount(OPENAPI, api.get((q, c) -> api.openapi));
  }

  /**
   * Refuses {@code serve --manage} without a store, HTTP or OAuth.
   *
   * @throws UsageException saying which is missing
   */
  static void checkOptions(boolean store, boolean http, boolean oauth) {
    if (!store) {
      throw new UsageException(
          "--manage needs --store: the management API moves the store's labels");
    }
    if (!http) {
      throw new UsageException("--manage needs --http");
    }
    if (!oauth) {
      throw new UsageException(
          "--manage needs OAuth (--oauth-issuer): the management API moves labels"
              + " and checks each caller's access token and scopes");
    }
  }

  /** The OpenAPI 3.1 description kept beside this class. */
  static byte[] openapi() throws IOException {
    try (InputStream in = ManageApi.class.getResourceAsStream("manage-openapi.json")) {
      if (in == null) {
        throw new IOException("the management API's OpenAPI description is missing from promptd");
      }
      return in.readAllBytes();
    }
  }

  /** A refusal, answered as {@code {"error": message}}. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Refused(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  private interface Reader {
    /** The body of a 200 answer to a GET with {@code query}. */
    byte[] answer(Map<String, String> query, Caller caller) throws Refused, StoreException;
  }

  private HttpMount get(Reader reader) {
    return (request, response) -> {
      if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
        response.header("Allow", "GET, HEAD");
        error(response, 405, "use GET");
        return;
      }
      answer(response, () -> reader.answer(query(request.query()), request.caller()));
    };
  }

  private interface Answer {
    byte[] get() throws Refused, StoreException;
  }

  private static void answer(MountResponse response, Answer answer) {
    try {
      byte[] body = answer.get();
      response.header("Cache-Control", "no-store");
      response.send(200, JSON, body);
    } catch (Refused e) {
      error(response, e.status, String.valueOf(e.getMessage()));
    } catch (StoreException e) {
      error(response, status(e.kind()), String.valueOf(e.getMessage()));
    }
  }

  static int status(StoreException.Kind kind) {
    return switch (kind) {
      case NOT_FOUND -> 404;
      case REFUSED -> 400;
      case FORBIDDEN -> 403;
      case CONFLICT -> 409;
      case FAILED -> 503;
    };
  }

  static void error(MountResponse response, int status, String message) {
    response.header("Cache-Control", "no-store");
    response.send(
        status,
        JSON,
        JsonCodec.writeBytes(JsonObject.builder().put("error", message).build(), true));
  }

  private byte[] prompts(Map<String, String> query, Caller caller) throws StoreException {
    return JsonCodec.writeBytes(ManageJson.prompts(store), true);
  }

  private byte[] versions(Map<String, String> query, Caller caller) throws Refused, StoreException {
    String name = required(query, "name");
    return JsonCodec.writeBytes(ManageJson.versions(store, name), true);
  }

  private byte[] diff(Map<String, String> query, Caller caller) throws Refused, StoreException {
    String name = required(query, "name");
    int from = version(required(query, "from"), "from");
    int to = version(required(query, "to"), "to");
    return JsonCodec.writeBytes(ManageJson.diff(store, name, from, to), true);
  }

  /** {@code GET /manage/v1/usage?name=NAME[&since=7d]}: the prompt's uses, as {@code promptd usage} counts them. */
  private byte[] usage(Map<String, String> query, Caller caller) throws Refused, StoreException {
    String name = required(query, "name");
    String since = query.getOrDefault("since", "7d");
    Duration period;
    try {
      period = UsageCommand.since(since);
    } catch (UsageException e) {
      throw new Refused(
          400,
          "'since' must be a number of days, hours or minutes (7d, 12h, 30m), not '" + since + "'");
    }
    Instant from = Instant.now().minus(period);
    return JsonCodec.writeBytes(
        ManageJson.usage(name, from, UsageReport.uses(database, from, name)), true);
  }

  /** {@code GET}: every label; {@code POST} or {@code PUT} with {@code {"name", "version", "label"}}: a move. */
  private void labels(MountRequest request, MountResponse response) throws IOException {
    switch (request.method()) {
      case "GET", "HEAD" ->
        answer(response, () -> JsonCodec.writeBytes(ManageJson.labels(store), true));
      case "POST", "PUT" -> {
        byte[] body = request.body(MAX_BODY);
        if (body == null) {
          error(response, 413, "the request body is over " + MAX_BODY + " bytes");
          return;
        }
        answer(response, () -> move(body, request.caller()));
      }
      default -> {
        response.header("Allow", "GET, HEAD, POST, PUT");
        error(response, 405, "use GET to list the labels, POST or PUT to move one");
      }
    }
  }

  private byte[] move(byte[] body, Caller caller) throws Refused, StoreException {
    JsonObject move;
    try {
      if (!(JsonCodec.parse(body, 0, body.length) instanceof JsonObject o)) {
        throw new Refused(
            400, "the body must be a JSON object: {\"name\", \"version\", \"label\"}");
      }
      move = o;
    } catch (JsonException e) {
      throw new Refused(400, "the body is not JSON: " + e.getMessage());
    }
    String name = move.string("name").orElse(null);
    String label = move.string("label").orElse(null);
    Json version = move.get("version");
    if (name == null || name.isEmpty() || label == null) {
      throw new Refused(400, "the body needs \"name\" and \"label\" (strings) and \"version\"");
    }
    if (!(version instanceof JsonNumber n)
        || !n.isLong()
        || n.longValue() < 1
        || n.longValue() > Integer.MAX_VALUE) {
      throw new Refused(
          400, "\"version\" must be a version number (1 or more; see /manage/v1/versions)");
    }
    // A caller without authorization in force cannot be here: --manage needs OAuth.
    String author = "api:" + (caller.subject() == null ? "unknown" : caller.subject());
    var moves = store.labels().set(name, (int) n.longValue(), label, author, caller.scopes());
    return JsonCodec.writeBytes(ManageJson.moves(moves), true);
  }

  private static String required(Map<String, String> query, String name) throws Refused {
    String v = query.get(name);
    if (v == null || v.isEmpty()) {
      throw new Refused(400, "the query parameter '" + name + "' is required");
    }
    return v;
  }

  private static int version(String text, String name) throws Refused {
    if (!text.matches("[1-9]\\d{0,8}")) {
      throw new Refused(400, "'" + name + "' must be a version number, not '" + text + "'");
    }
    return Integer.parseInt(text);
  }

  /** The query's parameters, decoded; the first value of each. */
  static Map<String, String> query(@Nullable String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&", -1)) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        // a malformed escape: the parameter is left out, and a required one is then reported
        // missing
      }
    }
    return out;
  }

  static JsonString text(String s) {
    return new JsonString(s);
  }
}
