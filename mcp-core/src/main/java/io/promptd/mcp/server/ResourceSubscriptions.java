package io.promptd.mcp.server;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Caller;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The resources one legacy session subscribed to ({@code resources/subscribe}), each with the caller that did. */
final class ResourceSubscriptions {
  private final ServerContext context;
  private final SessionImpl session;
  private final Map<String, Caller> subscribed = new ConcurrentHashMap<>();

  ResourceSubscriptions(ServerContext context, SessionImpl session) {
    this.context = context;
    this.session = session;
  }

  void subscribe(String uri, Caller caller) {
    subscribed.put(uri, caller);
    context.resourceEvents.addSubscriber(this);
  }

  void unsubscribe(String uri) {
    subscribed.remove(uri);
  }

  /** Whether this session subscribed to {@code uri} and may see it now. */
  boolean subscribedTo(String uri) {
    Caller caller = subscribed.get(uri);
    return caller != null && ResourcesFeature.visible(context.resources, caller, uri);
  }

  /** Tells this session's client that {@code uri} changed. */
  void notifyUpdated(String uri) {
    session.notifyClient(new Notification(
        Methods.NOTIFICATION_RESOURCES_UPDATED,
        JsonObject.builder().put("uri", uri).build()));
  }

  /** The URIs this session subscribed to. */
  Set<String> uris() {
    return Set.copyOf(subscribed.keySet());
  }

  /** Makes this session subscribed to exactly {@code uris}, as {@code caller}. */
  void replace(Set<String> uris, Caller caller) {
    subscribed.keySet().retainAll(uris);
    for (String uri : uris) {
      subscribed.put(uri, caller);
    }
    if (!uris.isEmpty()) {
      context.resourceEvents.addSubscriber(this);
    }
  }

  /** Drops this session's subscriptions. */
  void close() {
    subscribed.clear();
    context.resourceEvents.removeSubscriber(this);
  }
}
