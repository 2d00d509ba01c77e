package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.method.MethodTable.Era;
import io.promptd.mcp.server.internal.notify.ResourceSubscriptions;
import io.promptd.mcp.server.internal.state.Cursors;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code resources/*}: listing and reading in both eras, and a legacy session's
 * {@code resources/subscribe} and {@code resources/unsubscribe} (kept in the session's
 * {@link ResourceSubscriptions}). Without a {@link ResourceProvider} every resources method is
 * "method not found".
 */
public final class ResourcesFeature implements Feature {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  private final ServerContext context;

  public ResourcesFeature(ServerContext context) {
    this.context = context;
  }

  @Override
  public void declare(JsonObject.Builder capabilities, ProtocolVersion version) {
    if (context.resources != null) {
      capabilities.put(
          "resources",
          JsonObject.builder().put("subscribe", true).put("listChanged", true).build());
    }
  }

  @Override
  public void register(MethodTable.Builder table) {
    // Registered with or without a provider: before initialize they are premature (-32602), not
    // unknown (-32601).
    table.add(
        Methods.RESOURCES_LIST,
        Era.BOTH,
        MethodTable.Blocking.NEVER,
        call -> hinted(call, list(provider(call), call.params(), call.encoder(), call.caller())));
    table.add(
        Methods.RESOURCES_TEMPLATES_LIST,
        Era.BOTH,
        MethodTable.Blocking.NEVER,
        call ->
            hinted(call, templates(provider(call), call.params(), call.encoder(), call.caller())));
    // Providers may do I/O to read.
    table
        .add(
            Methods.RESOURCES_READ,
            Era.BOTH,
            MethodTable.Blocking.ALWAYS,
            call -> hinted(
                call,
                read(
                    provider(call),
                    call.params(),
                    call.encoder(),
                    call.rules().resourceNotFound(),
                    call.caller())))
        .named("uri");
    table.add(Methods.RESOURCES_SUBSCRIBE, Set.of(Era.LEGACY), MethodTable.Blocking.NEVER, call -> {
      provider(call);
      // Accepted whether or not the resource exists or is visible, as before; updates go only to
      // who may see it.
      call.legacySession().resourceSubscriptions().subscribe(uri(call.params()), call.caller());
      return JsonObject.builder();
    });
    table.add(
        Methods.RESOURCES_UNSUBSCRIBE, Set.of(Era.LEGACY), MethodTable.Blocking.NEVER, call -> {
          provider(call);
          call.legacySession().resourceSubscriptions().unsubscribe(uri(call.params()));
          return JsonObject.builder();
        });
  }

  /** A result gets its caching hints when the call's era gives them. */
  private JsonObject.Builder hinted(MethodCall call, JsonObject.Builder result) {
    if (!call.rules().cacheHints()) {
      return result;
    }
    // Resources change under the library's feet; "private" keeps shared caches from serving a stale
    // read.
    String scope =
        call.request().method().equals(Methods.RESOURCES_READ) ? "private" : call.cacheScope();
    return result.put("ttlMs", context.listTtl.toMillis()).put("cacheScope", scope);
  }

  /**
   * Reads the resource part of a {@code subscriptions/listen} filter and adds what was accepted to
   * {@code ack}.
   *
   * @return the accepted filter: whether list changes are wanted, and the watched URIs
   */
  static Filter filter(
      @Nullable ResourceProvider provider, JsonObject notifications, JsonObject.Builder ack) {
    if (provider == null) {
      return Filter.NONE;
    }
    boolean listChanged =
        notifications.get("resourcesListChanged") instanceof JsonBoolean b && b.value();
    Set<String> uris = new LinkedHashSet<>();
    Json raw = notifications.get("resourceSubscriptions");
    if (raw != null) {
      if (!(raw instanceof JsonArray array)) {
        throw McpException.invalidParams(
            "Invalid params: \"notifications.resourceSubscriptions\" must be an array of URIs");
      }
      for (Json element : array.elements()) {
        if (!(element instanceof JsonString s)) {
          throw McpException.invalidParams(
              "Invalid params: \"notifications.resourceSubscriptions\" must hold strings");
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

  private ResourceProvider provider(MethodCall call) {
    ResourceProvider provider = context.resources;
    if (provider == null) {
      throw McpException.methodNotFound(call.request().method());
    }
    return provider;
  }

  private JsonObject.Builder list(
      ResourceProvider provider, JsonObject params, Encoder encoder, Caller caller) {
    List<Resource> all = provider.resources();
    if (!caller.unrestricted()) {
      all = all.stream().filter(r -> provider.visible(caller, r.uri())).toList();
    }
    return page(all, params, "resources", encoder::resource);
  }

  private JsonObject.Builder templates(
      ResourceProvider provider, JsonObject params, Encoder encoder, Caller caller) {
    List<ResourceTemplate> all = provider.templates();
    if (!caller.unrestricted()) {
      all = all.stream().filter(t -> provider.visible(caller, t)).toList();
    }
    return page(all, params, "resourceTemplates", encoder::resourceTemplate);
  }

  private <T> JsonObject.Builder page(
      List<T> all, JsonObject params, String field, Function<T, JsonObject> encode) {
    return page(context.cursors, context.pageSize, all, params, field, field, encode);
  }

  /**
   * One page of {@code all} under {@code field}, with the server's cursor scheme: an element is
   * never split, and a cursor names its {@code listing} so that one issued for another cannot page
   * this one.
   */
  static <T> JsonObject.Builder page(
      Cursors cursors,
      int pageSize,
      List<T> all,
      JsonObject params,
      String field,
      String listing,
      Function<T, JsonObject> encode) {
    int from = 0;
    Json cursor = params.get("cursor");
    if (cursor instanceof JsonString s) {
      from = offset(cursors.decode(s.value()), listing);
    } else if (cursor != null) {
      throw McpException.invalidParams("Invalid cursor: \"cursor\" must be a string");
    }
    int to = Math.min(all.size(), from + pageSize);
    List<Json> items = new ArrayList<>(Math.max(0, to - from));
    for (int i = from; i < to; i++) {
      items.add(encode.apply(all.get(i)));
    }
    JsonObject.Builder result = JsonObject.builder().put(field, new JsonArray(items));
    if (to < all.size()) {
      result.put("nextCursor", cursors.encode(listing + ':' + to));
    }
    return result;
  }

  /**
   * The offset a cursor names; cursors name their listing so one from prompts/list cannot page
   * resources.
   */
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

  private JsonObject.Builder read(
      ResourceProvider provider,
      JsonObject params,
      Encoder encoder,
      int notFoundCode,
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
          notFoundCode,
          "Resource not found: " + uri,
          JsonObject.builder().put("uri", uri).build());
    }
    List<Json> encoded = new ArrayList<>(contents.get().size());
    for (ResourceContents c : contents.get()) {
      encoded.add(encoder.resourceContents(c));
    }
    return JsonObject.builder().put("contents", new JsonArray(encoded));
  }

  private static String uri(JsonObject params) {
    return params
        .string("uri")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: \"uri\" must be a string naming a resource"));
  }
}
