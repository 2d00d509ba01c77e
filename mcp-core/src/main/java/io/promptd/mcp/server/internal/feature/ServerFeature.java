package io.promptd.mcp.server.internal.feature;

import static io.promptd.mcp.server.internal.method.MethodTable.Era.LEGACY;
import static io.promptd.mcp.server.internal.method.MethodTable.Era.MODERN;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.method.Capabilities;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.notify.ListenScope;
import io.promptd.mcp.server.internal.notify.Subscription;
import io.promptd.mcp.server.internal.state.LegacyState;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Outbound;
import java.util.Arrays;
import java.util.Set;

/**
 * The methods of the protocol itself rather than of a feature: {@code ping} and
 * {@code logging/setLevel} in legacy sessions, {@code server/discover} and
 * {@code subscriptions/listen} in 2026-07-28. ({@code initialize} opens a legacy session and is the
 * {@code LegacyEra}'s.)
 */
public final class ServerFeature implements Feature {
  private final ServerContext context;
  private final Capabilities capabilities;

  public ServerFeature(ServerContext context, Capabilities capabilities) {
    this.context = context;
    this.capabilities = capabilities;
  }

  @Override
  public void register(MethodTable.Builder table) {
    table.era(Methods.INITIALIZE, Set.of(LEGACY));
    table.notification(Methods.NOTIFICATION_INITIALIZED, Set.of(LEGACY));
    table.notification(Methods.NOTIFICATION_CANCELLED, Set.of(LEGACY));
    table.notification(Methods.NOTIFICATION_PROGRESS, Set.of(LEGACY));
    table.notification(Methods.NOTIFICATION_ROOTS_LIST_CHANGED, Set.of(LEGACY));
    table.add(
        Methods.PING, Set.of(LEGACY), MethodTable.Blocking.NEVER, call -> JsonObject.builder());
    table.add(
        Methods.LOGGING_SET_LEVEL,
        Set.of(LEGACY),
        MethodTable.Blocking.NEVER,
        ServerFeature::setLevel);
    table.add(
        Methods.SERVER_DISCOVER, Set.of(MODERN), MethodTable.Blocking.NEVER, call -> discover());
    table.add(
        Methods.SUBSCRIPTIONS_LISTEN, Set.of(MODERN), MethodTable.Blocking.ALWAYS, this::listen);
  }

  private static JsonObject.Builder setLevel(MethodCall call) {
    LegacyState state = call.legacySession().legacy();
    if (state == null) {
      throw McpException.methodNotFound(call.request().method());
    }
    state.logLevel = LoggingLevel.of(call.params().string("level").orElse(""))
        .orElseThrow(() -> McpException.invalidParams("Invalid params: \"level\" must be one of "
            + String.join(
                ", ", Arrays.stream(LoggingLevel.values()).map(LoggingLevel::id).toList())));
    return JsonObject.builder();
  }

  private JsonObject.Builder discover() {
    return JsonObject.builder()
        .put("supportedVersions", JsonArray.ofStrings(ProtocolVersion.supportedIds()))
        .put("capabilities", capabilities.of(ProtocolVersion.LATEST_MODERN, false))
        .put("instructions", context.instructions)
        .put("ttlMs", context.discoverTtl.toMillis())
        .put("cacheScope", "public");
  }

  private JsonObject.Builder listen(MethodCall call) {
    Caller caller = call.caller();
    Outbound stream = call.stream();
    ListenScope scope = call.listens();
    JsonObject filter = call.params()
        .object("notifications")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: subscriptions/listen needs \"notifications\" (an object)"));
    boolean wantsPrompts = filter.get("promptsListChanged") instanceof JsonBoolean b && b.value();
    boolean wantsTools = context.promptsAsTools
        && filter.get("toolsListChanged") instanceof JsonBoolean t
        && t.value();
    JsonObject.Builder acknowledged = JsonObject.builder();
    if (wantsPrompts) {
      acknowledged.put("promptsListChanged", true);
    }
    if (wantsTools) {
      acknowledged.put("toolsListChanged", true);
    }
    ResourcesFeature.Filter res = ResourcesFeature.filter(context.resources, filter, acknowledged);
    Subscription sub = new Subscription(
        call.request().id(),
        stream,
        wantsPrompts,
        res.listChanged(),
        wantsTools,
        res.uris(),
        caller);
    scope.add(sub);
    try {
      synchronized (sub) {
        context.broadcaster.addSubscription(sub);
        stream.send(new Notification(
            Methods.NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED,
            JsonObject.builder()
                .put("_meta", sub.meta())
                .put("notifications", acknowledged.build())
                .build()));
      }
      // A server-side teardown is announced (cancellation: MUST), then answered (subscriptions:
      // SHOULD).
      if (!sub.await() || !sub.sayCancelled()) {
        throw McpException.internal("Subscription stream closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw McpException.internal(
          "Subscription cancelled"); // suppressed: a cancelled request gets no response
    } finally {
      context.broadcaster.removeSubscription(sub);
      scope.remove(sub);
    }
    return JsonObject.builder().put("_meta", sub.meta());
  }
}
