package io.promptd.cli;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.spi.Caller;
import io.promptd.store.FileLabel;
import io.promptd.store.FileVersion;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.UsageReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The management API ({@code serve --store URL --http --manage --manage-scope SCOPE}): the store's
 * versions, labels and diffs as JSON, label moves, release promotions and their reverts
 * ({@link ManagePromotions}), and each prompt's uses (what {@code promptd usage} reads, per client
 * and outcome too), at {@code /manage/v1/...} behind the server's OAuth resource server. Every call
 * needs the API's own scope; what a caller may see and move is what it may see over MCP
 * ({@link ManageVisibility}): a file it may not see is answered as one that does not exist. Moving
 * a label on a folder file, or to a version that declares other scopes, needs the admin scope; so
 * does moving a label this server serves that has no protection of its own; a protected label moves
 * only for a token holding its scope. Answers are JSON; an error is {@code {"error": MESSAGE}} with
 * 400, 401, 403, 404, 405, 409, 413 or 503, never a stack trace.
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
      BASE + "/labels/promote",
      BASE + "/promotions",
      BASE + "/promotions/revert",
      BASE + "/usage",
      OPENAPI);
  /** The largest request body read. */
  static final int MAX_BODY = 64 * 1024;
  /** The files one page of {@code /manage/v1/prompts} holds unless the caller asks for fewer. */
  static final int PAGE = 100;
  /** The most files one page holds. */
  static final int MAX_PAGE = 500;

  /**
   * Who may use the API.
   *
   * @param scope the scope every call needs ({@code --manage-scope})
   * @param admin the scope changing what decides visibility needs, and moving a served label with
   *     no protection of its own ({@code --manage-admin-scope}); null when only the command line
   *     may do either
   * @param served the labels this server serves: protected by default
   */
  record Access(String scope, @Nullable String admin, Set<String> served) {
    Access {
      served = Set.copyOf(served);
    }
  }

  private static final String JSON = "application/json";

  private final PromptStore store;
  private final StoreDatabase database;
  private final byte[] openapi;
  private final Access access;
  private final ManageVisibility visibility;
  private final ManageMoves moves;
  private final ManagePromotions promotions;

  private ManageApi(PromptStore store, StoreDatabase database, byte[] openapi, Access access) {
    this.store = store;
    this.database = database;
    this.openapi = openapi;
    this.access = access;
    this.visibility = new ManageVisibility(store);
    this.moves = new ManageMoves(store, access, visibility);
    this.promotions = new ManagePromotions(store, visibility, moves);
  }

  /**
   * Mounts the API's paths on {@code builder}, behind its authentication, reading and moving in
   * {@code store} and reading usage from {@code database} (the store's), for the callers
   * {@code access} admits.
   */
  static void mountOn(
      HttpTransportBuilder builder, PromptStore store, StoreDatabase database, Access access) {
    ManageApi api;
    try {
      api = new ManageApi(store, database, openapi(), access);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    builder.authenticatedMount(BASE + "/prompts", api.get(api::prompts));
    builder.authenticatedMount(BASE + "/versions", api.get(api::versions));
    builder.authenticatedMount(BASE + "/diff", api.get(api::diff));
    builder.authenticatedMount(BASE + "/labels", api.scoped(api::labels));
    builder.authenticatedMount(
        BASE + "/labels/promote",
        api.post("use POST with {\"from\", \"to\"} to promote a release", api.promotions::promote));
    builder.authenticatedMount(BASE + "/promotions", api.get((q, c) -> api.promotions.list(c)));
    builder.authenticatedMount(
        BASE + "/promotions/revert",
        api.post(
            "use POST with {\"promotion\": NUMBER} to revert a promotion", api.promotions::revert));
    builder.authenticatedMount(BASE + "/usage", api.get(api::usage));
    builder.authenticatedMount(OPENAPI, api.get((q, c) -> api.openapi));
  }

  /**
   * Refuses {@code serve --manage} without a store, HTTP or OAuth.
   *
   * @throws UsageException saying which is missing
   */
  static void checkOptions(
      boolean store, boolean http, boolean oauth, @Nullable String scope, @Nullable String admin) {
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
    if (scope == null) {
      throw new UsageException(
          "--manage needs --manage-scope SCOPE: the scope a token must hold to use the management"
              + " API (for example promptd.manage)");
    }
    checkScope("--manage-scope", scope);
    if (admin != null) {
      checkScope("--manage-admin-scope", admin);
    }
  }

  private static void checkScope(String option, String scope) {
    if (!scope.matches("[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,128}")) {
      throw new UsageException(
          option + " '" + scope + "' is not an OAuth scope: 1 to 128 printable ASCII characters"
              + " other than space, '\"' and '\\'");
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

  /**
   * {@code mount}, answered only for a caller holding the API's scope (403
   * {@code insufficient_scope} otherwise).
   */
  private HttpMount scoped(HttpMount mount) {
    return (request, response) -> {
      if (!request.caller().scopes().contains(access.scope())) {
        response.header(
            "WWW-Authenticate",
            "Bearer error=\"insufficient_scope\", scope=\"" + access.scope() + "\"");
        error(
            response,
            403,
            "the management API needs the scope '" + access.scope() + "' in the access token");
        return;
      }
      mount.serve(request, response);
    };
  }

  private HttpMount get(Reader reader) {
    return scoped((request, response) -> {
      if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
        response.header("Allow", "GET, HEAD");
        error(response, 405, "use GET");
        return;
      }
      answer(response, () -> reader.answer(query(request.query()), request.caller()));
    });
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

  /**
   * {@code GET /manage/v1/prompts[?limit=N][&cursor=C]}: the files the caller may see, by path, a
   * page at a time; the answer's {@code nextCursor} asks for the next page.
   */
  private byte[] prompts(Map<String, String> query, Caller caller) throws Refused, StoreException {
    int limit = PAGE;
    String asked = query.get("limit");
    if (asked != null) {
      if (!asked.matches("[1-9]\\d{0,2}") || Integer.parseInt(asked) > MAX_PAGE) {
        throw new Refused(
            400, "'limit' must be a number from 1 to " + MAX_PAGE + ", not '" + asked + "'");
      }
      limit = Integer.parseInt(asked);
    }
    String after = query.containsKey("cursor") ? ManageCursor.path(query.get("cursor")) : null;
    List<FileVersion> history = store.history();
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(history);
    Set<String> seen = visibility.visible(caller, all.keySet(), all);
    List<String> page = new ArrayList<>();
    String next = null;
    for (String path : new TreeSet<>(seen)) {
      if (after != null && path.compareTo(after) <= 0) {
        continue;
      }
      if (page.size() == limit) {
        next = ManageCursor.of(page.get(page.size() - 1));
        break;
      }
      page.add(path);
    }
    Set<String> shown = Set.copyOf(page);
    List<FileVersion> versions = new ArrayList<>();
    history.stream().filter(v -> shown.contains(v.path())).forEach(versions::add);
    List<FileLabel> labels = new ArrayList<>();
    store.labels().list(null).stream().filter(l -> shown.contains(l.path())).forEach(labels::add);
    return JsonCodec.writeBytes(ManageJson.prompts(store, versions, labels, next), true);
  }

  private byte[] versions(Map<String, String> query, Caller caller) throws Refused, StoreException {
    String name = required(query, "name");
    visibility.named(name, caller);
    return JsonCodec.writeBytes(ManageJson.versions(store, name), true);
  }

  private byte[] diff(Map<String, String> query, Caller caller) throws Refused, StoreException {
    String name = required(query, "name");
    int from = version(required(query, "from"), "from");
    int to = version(required(query, "to"), "to");
    visibility.named(name, caller);
    return JsonCodec.writeBytes(ManageJson.diff(store, name, from, to), true);
  }

  /**
   * {@code GET /manage/v1/usage?name=NAME[&since=7d]}: the prompt's uses, as {@code promptd usage}
   * counts them; none for a prompt the caller may not see, as for one nobody used.
   */
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
    boolean visible;
    try {
      visibility.named(name, caller);
      visible = true;
    } catch (Refused e) {
      visible = false;
    }
    return JsonCodec.writeBytes(
        ManageJson.usage(name, from, visible ? UsageReport.uses(database, from, name) : List.of()),
        true);
  }

  /** {@code GET /manage/v1/labels}: where each label points on the files the caller may see. */
  private byte[] labelList(Caller caller) throws StoreException {
    List<FileLabel> labels = store.labels().list(null);
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history());
    Set<String> paths = new HashSet<>();
    labels.forEach(l -> paths.add(l.path()));
    Set<String> seen = visibility.visible(caller, paths, all);
    return JsonCodec.writeBytes(
        ManageJson.labels(
            store, labels.stream().filter(l -> seen.contains(l.path())).toList()),
        true);
  }

  /**
   * {@code GET}: every label; {@code POST} or {@code PUT} with {@code {"name", "version",
   * "label"}}: a move.
   */
  private void labels(MountRequest request, MountResponse response) throws IOException {
    switch (request.method()) {
      case "GET", "HEAD" -> answer(response, () -> labelList(request.caller()));
      case "POST", "PUT" -> {
        byte[] body = request.body(MAX_BODY);
        if (body == null) {
          error(response, 413, "the request body is over " + MAX_BODY + " bytes");
          return;
        }
        answer(response, () -> moves.move(body, request.caller()));
      }
      default -> {
        response.header("Allow", "GET, HEAD, POST, PUT");
        error(response, 405, "use GET to list the labels, POST or PUT to move one");
      }
    }
  }

  private interface Writer {
    /** The body of a 200 answer to a POST of {@code body}. */
    byte[] answer(byte[] body, Caller caller) throws Refused, StoreException;
  }

  /**
   * A POST-only path answered by {@code writer} ({@code POST /labels/promote} with {@code {"from",
   * "to", "only"?, "dryRun"?}}, {@code POST /promotions/revert} with {@code {"promotion",
   * "dryRun"?}}); another method is answered 405 with {@code usage}.
   */
  private HttpMount post(String usage, Writer writer) {
    return scoped((request, response) -> {
      if (!request.method().equals("POST")) {
        response.header("Allow", "POST");
        error(response, 405, usage);
        return;
      }
      byte[] body = request.body(MAX_BODY);
      if (body == null) {
        error(response, 413, "the request body is over " + MAX_BODY + " bytes");
        return;
      }
      answer(response, () -> writer.answer(body, request.caller()));
    });
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
