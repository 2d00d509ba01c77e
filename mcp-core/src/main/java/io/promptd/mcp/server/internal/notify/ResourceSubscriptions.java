package io.promptd.mcp.server.internal.notify;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.spi.Caller;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The resources one legacy session subscribed to ({@code resources/subscribe}), each with the
 * caller that did.
 */
public final class ResourceSubscriptions {
  private final ResourceEvents events;
  private final @Nullable ResourceProvider resources;
  private final SessionChannel session;
  private final Map<String, Caller> subscribed = new ConcurrentHashMap<>();

  public ResourceSubscriptions(
      ResourceEvents events, @Nullable ResourceProvider resources, SessionChannel session) {
    this.events = events;
    this.resources = resources;
    this.session = session;
  }

  public void subscribe(String uri, Caller caller) {
    subscribed.put(uri, caller);
    events.addSubscriber(this);
  }

  public void unsubscribe(String uri) {
    subscribed.remove(uri);
  }

  /** Whether this session subscribed to {@code uri} and may see it now. */
  boolean subscribedTo(String uri) {
    Caller caller = subscribed.get(uri);
    return caller != null && ResourceEvents.visible(resources, caller, uri);
  }

  /** Tells this session's client that {@code uri} changed. */
  void notifyUpdated(String uri) {
    session.notifyClient(new Notification(
        Methods.NOTIFICATION_RESOURCES_UPDATED,
        JsonObject.builder().put("uri", uri).build()));
  }

  /** The URIs this session subscribed to. */
  public Set<String> uris() {
    return Set.copyOf(subscribed.keySet());
  }

  /** Makes this session subscribed to exactly {@code uris}, as {@code caller}. */
  public void replace(Set<String> uris, Caller caller) {
    subscribed.keySet().retainAll(uris);
    for (String uri : uris) {
      subscribed.put(uri, caller);
    }
    if (!uris.isEmpty()) {
      events.addSubscriber(this);
    }
  }

  /** Drops this session's subscriptions. */
  public void close() {
    subscribed.clear();
    events.removeSubscriber(this);
  }
}
