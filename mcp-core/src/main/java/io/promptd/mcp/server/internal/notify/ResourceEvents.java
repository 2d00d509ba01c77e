package io.promptd.mcp.server.internal.notify;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.spi.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Turns a {@link ResourceProvider}'s changes into notifications:
 * {@code notifications/resources/list_changed} for every legacy session and every modern
 * subscription that asked, {@code notifications/resources/updated} for the legacy sessions that
 * subscribed to the URI and the modern subscriptions that watch it. Deliveries run on the
 * broadcaster's thread so a provider's file watcher never waits on a slow client.
 *
 * <p>Under authorization, {@code updated} goes only to callers that may see the resource, since it
 * names it; {@code list_changed} names nothing, yet its timing tells that something changed: a
 * change the provider scopes ({@link ResourceProvider.Listener#listChanged(Set)}) goes only to
 * callers who may see some of it, as prompts' does.
 */
public final class ResourceEvents implements ResourceProvider.Listener {
  private final Broadcaster broadcaster;
  private final @Nullable ResourceProvider resources;
  private final Set<ResourceSubscriptions> subscribers = ConcurrentHashMap.newKeySet();

  public ResourceEvents(Broadcaster broadcaster, @Nullable ResourceProvider resources) {
    this.broadcaster = broadcaster;
    this.resources = resources;
  }

  @Override
  public void listChanged() {
    listChangedFor(Broadcaster.concerned(null));
  }

  @Override
  public void listChanged(Set<Set<String>> scopes) {
    Set<Set<String>> copy =
        scopes.stream().map(Set::copyOf).collect(Collectors.toUnmodifiableSet());
    listChangedFor(Broadcaster.concerned(copy));
  }

  private void listChangedFor(Predicate<Caller> concerned) {
    broadcaster.submit(() -> {
      broadcaster.toSessions(
          session -> concerned.test(session.caller()),
          new Notification(Methods.NOTIFICATION_RESOURCES_LIST_CHANGED, null));
      broadcaster.toSubscriptions(
          s -> s.resourcesListChanged() && concerned.test(s.caller()),
          Methods.NOTIFICATION_RESOURCES_LIST_CHANGED,
          JsonObject.EMPTY);
    });
  }

  @Override
  public void updated(String uri) {
    broadcaster.submit(() -> {
      List<ResourceSubscriptions> failed = new ArrayList<>();
      for (ResourceSubscriptions session : subscribers) {
        if (session.subscribedTo(uri)) {
          try {
            session.notifyUpdated(uri);
          } catch (RuntimeException e) {
            failed.add(session); // its channel is gone
          }
        }
      }
      failed.forEach(subscribers::remove);
      broadcaster.toSubscriptions(
          s -> s.watches(uri) && visible(resources, s.caller(), uri),
          Methods.NOTIFICATION_RESOURCES_UPDATED,
          JsonObject.builder().put("uri", uri).build());
    });
  }

  /**
   * Whether {@code caller} may see the resource at {@code uri}; unrestricted callers see all
   * without asking.
   */
  static boolean visible(@Nullable ResourceProvider provider, Caller caller, String uri) {
    return caller.unrestricted() || (provider != null && provider.visible(caller, uri));
  }

  void addSubscriber(ResourceSubscriptions session) {
    subscribers.add(session);
  }

  void removeSubscriber(ResourceSubscriptions session) {
    subscribers.remove(session);
  }
}
