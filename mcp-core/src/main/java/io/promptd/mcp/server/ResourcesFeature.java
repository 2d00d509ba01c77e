package io.promptd.mcp.server;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code resources/*} for one session: listing and reading in both eras, and the legacy session's own {@code
 * resources/subscribe} set. Without a {@link ResourceProvider} every resources method is "method not found".
 */
final class ResourcesFeature {
  static final String LIST_CHANGED = "notifications/resources/list_changed";
  static final String UPDATED = "notifications/resources/updated";
  static final Set<String> LEGACY_METHODS = Set.of(
      "resources/list", "resources/read", "resources/templates/list", "resources/subscribe", "resources/unsubscribe");
  static final Set<String> MODERN_METHODS = Set.of("resources/list", "resources/read", "resources/templates/list");

  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  private final McpServer server;
  private final @Nullable SessionImpl session; // null: the stateless era, which has no resources/subscribe
  /** The URIs this legacy session subscribed to, each with the caller that subscribed. */
  private final Map<String, Caller> subscribed = new ConcurrentHashMap<>();

  ResourcesFeature(McpServer server, @Nullable SessionImpl session) {
    this.server = server;
    this.session = session;
  }

  /** Serves a legacy resources request; -32601 for any other method. */
  JsonObject legacy(Request request, Encoder encoder, Caller caller) {
    ResourceProvider provider = provider(request.method(), LEGACY_METHODS);
    JsonObject params = request.params();
    return switch (request.method()) {
      case "resources/list" -> list(provider, params, encoder, caller).build();
      case "resources/templates/list" -> templates(provider, params, encoder, caller).build();
      case "resources/read" -> read(provider, params, encoder, ErrorCodes.RESOURCE_NOT_FOUND, caller).build();
      case "resources/subscribe" -> subscribe(uri(params), caller);
      case "resources/unsubscribe" -> unsubscribe(uri(params));
      default -> throw McpException.methodNotFound(request.method());
    };
  }

  /** Serves a modern resources request with its caching hints; -32601 for any other method. */
  JsonObject.Builder modern(Request request, Encoder encoder, Caller caller) {
    ResourceProvider provider = provider(request.method(), MODERN_METHODS);
    JsonObject params = request.params();
    JsonObject.Builder result = switch (request.method()) {
      case "resources/list" -> list(provider, params, encoder, caller);
      case "resources/templates/list" -> templates(provider, params, encoder, caller);
      case "resources/read" -> read(provider, params, encoder, ErrorCodes.INVALID_PARAMS, caller);
      default -> throw McpException.methodNotFound(request.method());
    };
    // Resources change under the library's feet; "private" keeps shared caches from serving a stale read.
    String scope = request.method().equals("resources/read") ? "private" : Stateless.cacheScope(caller);
    return result.put("ttlMs", server.listTtl().toMillis()).put("cacheScope", scope);
  }

  /** Whether this legacy session subscribed to {@code uri} and may see it now. */
  boolean subscribedTo(String uri) {
    Caller caller = subscribed.get(uri);
    return caller != null && visible(server.resources(), caller, uri);
  }

  /** Whether {@code caller} may see the resource at {@code uri}; unrestricted callers see all without asking. */
  static boolean visible(@Nullable ResourceProvider provider, Caller caller, String uri) {
    return caller.unrestricted() || (provider != null && provider.visible(caller, uri));
  }

  /** Tells this session's client that {@code uri} changed. */
  void notifyUpdated(String uri) {
    SessionImpl s = session;
    if (s != null) {
      s.notifyClient(new Notification(UPDATED, JsonObject.builder().put("uri", uri).build()));
    }
  }

  /** The URIs this legacy session subscribed to. */
  Set<String> subscriptions() {
    return Set.copyOf(subscribed.keySet());
  }

  /** Makes this legacy session subscribed to exactly {@code uris}, as {@code caller}. */
  void replaceSubscriptions(Set<String> uris, Caller caller) {
    subscribed.keySet().retainAll(uris);
    for (String uri : uris) {
      subscribed.put(uri, caller);
    }
    if (!uris.isEmpty()) {
      server.resourceEvents().addSubscriber(this);
    }
  }

  /** Drops this session's subscriptions. */
  void close() {
    subscribed.clear();
    server.resourceEvents().removeSubscriber(this);
  }

  /**
   * Reads the resource part of a {@code subscriptions/listen} filter and adds what was accepted to {@code ack}.
   *
   * @return the accepted filter: whether list changes are wanted, and the watched URIs
   */
  static Filter filter(@Nullable ResourceProvider provider, JsonObject notifications, JsonObject.Builder ack) {
    if (provider == null) {
      return Filter.NONE;
    }
    boolean listChanged = notifications.get("resourcesListChanged") instanceof JsonBoolean b && b.value();
    Set<String> uris = new LinkedHashSet<>();
    Json raw = notifications.get("resourceSubscriptions");
    if (raw != null) {
      if (!(raw instanceof JsonArray array)) {
        throw McpException.invalidParams("Invalid params: \"notifications.resourceSubscriptions\" must be an array of URIs");
      }
      for (Json element : array.elements()) {
        if (!(element instanceof JsonString s)) {
          throw McpException.invalidParams("Invalid params: \"notifications.resourceSubscriptions\" must hold strings");
        }
        uris.add(s.value());
      }
    }
    if (listChanged) {
      ack.put("resourcesListChanged", true);
    }
    if (!uris.isEmpty()) {
      ack.put("resourceSubscriptions", JsonArray.ofStrings(List.copyOf(uris)));
    }
    return new Filter(listChanged, uris);
  }

  /** The resource part of a modern subscription. */
  record Filter(boolean listChanged, Set<String> uris) {
    static final Filter NONE = new Filter(false, Set.of());
  }

  private ResourceProvider provider(String method, Set<String> methods) {
    ResourceProvider provider = server.resources();
    if (provider == null || !methods.contains(method)) {
      throw McpException.methodNotFound(method);
    }
    return provider;
  }

  private JsonObject.Builder list(ResourceProvider provider, JsonObject params, Encoder encoder, Caller caller) {
    List<Resource> all = provider.resources();
    if (!caller.unrestricted()) {
      all = all.stream().filter(r -> provider.visible(caller, r.uri())).toList();
    }
    return page(all, params, "resources", encoder::resource);
  }

  private JsonObject.Builder templates(ResourceProvider provider, JsonObject params, Encoder encoder, Caller caller) {
    List<ResourceTemplate> all = provider.templates();
    if (!caller.unrestricted()) {
      all = all.stream().filter(t -> provider.visible(caller, t)).toList();
    }
    return page(all, params, "resourceTemplates", encoder::resourceTemplate);
  }

  private <T> JsonObject.Builder page(List<T> all, JsonObject params, String field, Function<T, JsonObject> encode) {
    int from = 0;
    Json cursor = params.get("cursor");
    if (cursor instanceof JsonString s) {
      from = offset(server.cursors().decode(s.value()), field);
    } else if (cursor != null) {
      throw McpException.invalidParams("Invalid cursor: \"cursor\" must be a string");
    }
    int to = Math.min(all.size(), from + server.pageSize());
    List<Json> items = new ArrayList<>(Math.max(0, to - from));
    for (int i = from; i < to; i++) {
      items.add(encode.apply(all.get(i)));
    }
    JsonObject.Builder result = JsonObject.builder().put(field, new JsonArray(items));
    if (to < all.size()) {
      result.put("nextCursor", server.cursors().encode(field + ':' + to));
    }
    return result;
  }

  /** The offset a cursor names; cursors name their listing so one from prompts/list cannot page resources. */
  private static int offset(String decoded, String field) {
    String prefix = field + ':';
    if (decoded.startsWith(prefix)) {
      try {
        return Integer.parseInt(decoded.substring(prefix.length()));
      } catch (NumberFormatException e) {
        // fall through: not one of ours
      }
    }
    throw McpException.invalidParams("Invalid cursor: not one this server issued for " + field);
  }

  private JsonObject.Builder read(ResourceProvider provider, JsonObject params, Encoder encoder, int notFoundCode,
      Caller caller) {
    String uri = uri(params);
    Optional<List<ResourceContents>> contents;
    try {
      // A resource the caller may not see is not read: it is not found, as a URI nothing serves.
      contents = caller.unrestricted() ? provider.read(uri) : provider.read(uri, caller);
    } catch (McpException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw McpException.internal("resource '" + uri + "': reading was interrupted");
    } catch (Exception e) {
      LOG.log(Level.ERROR, "resource '" + uri + "' could not be read", e);
      throw McpException.internal("resource '" + uri + "' could not be read");
    }
    if (contents.isEmpty()) {
      throw new McpException(
          notFoundCode, "Resource not found: " + uri, JsonObject.builder().put("uri", uri).build());
    }
    List<Json> encoded = new ArrayList<>(contents.get().size());
    for (ResourceContents c : contents.get()) {
      encoded.add(encoder.resourceContents(c));
    }
    return JsonObject.builder().put("contents", new JsonArray(encoded));
  }

  private JsonObject subscribe(String uri, Caller caller) {
    // Accepted whether or not the resource exists or is visible, as before; updates go only to who may see it.
    subscribed.put(uri, caller);
    server.resourceEvents().addSubscriber(this);
    return JsonObject.EMPTY;
  }

  private JsonObject unsubscribe(String uri) {
    subscribed.remove(uri);
    return JsonObject.EMPTY;
  }

  private static String uri(JsonObject params) {
    return params.string("uri")
        .orElseThrow(() -> McpException.invalidParams("Invalid params: \"uri\" must be a string naming a resource"));
  }
}
