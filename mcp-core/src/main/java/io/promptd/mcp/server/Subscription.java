package io.promptd.mcp.server;

import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.RequestId;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * One open {@code subscriptions/listen} request. Every message on it carries the subscription id in {@code _meta}; the
 * acknowledgement is sent first, under the same lock that orders deliveries.
 */
final class Subscription {
  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  private final RequestId id;
  private final Outbound stream;
  private final boolean promptsListChanged;
  private final boolean resourcesListChanged;
  private final Set<String> resourceUris;
  private final Caller caller;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean graceful;
  private volatile boolean broken;

  Subscription(RequestId id, Outbound stream, boolean promptsListChanged) {
    this(id, stream, promptsListChanged, false, Set.of(), Caller.UNRESTRICTED);
  }

  Subscription(RequestId id, Outbound stream, boolean promptsListChanged, boolean resourcesListChanged,
      Set<String> resourceUris, Caller caller) {
    this.id = id;
    this.stream = stream;
    this.promptsListChanged = promptsListChanged;
    this.resourcesListChanged = resourcesListChanged;
    this.resourceUris = Set.copyOf(resourceUris);
    this.caller = caller;
  }

  /** Who opened the subscription: a resource it may not see is never announced on it. */
  Caller caller() {
    return caller;
  }

  RequestId id() {
    return id;
  }

  boolean promptsListChanged() {
    return promptsListChanged;
  }

  boolean resourcesListChanged() {
    return resourcesListChanged;
  }

  /** Whether this subscription watches the resource at {@code uri}. */
  boolean watches(String uri) {
    return resourceUris.contains(uri);
  }

  JsonObject meta() {
    return JsonObject.builder().put(SUBSCRIPTION_ID, id.value()).build();
  }

  /** Sends a notification tagged with this subscription's id; a failed stream ends the subscription. */
  synchronized void deliver(String method, JsonObject params) {
    if (broken || ended.getCount() == 0) {
      return;
    }
    JsonObject tagged = params.toBuilder().put("_meta", meta()).build();
    try {
      stream.send(new Notification(method, tagged));
    } catch (RuntimeException e) {
      broken = true;
      end(false);
    }
  }

  /**
   * Ends the subscription; {@code gracefully} when the server closes it and should answer the request. Synchronized
   * with {@link #deliver}, so that a notification being written is finished before the request is answered.
   */
  synchronized void end(boolean gracefully) {
    graceful = gracefully;
    ended.countDown();
  }

  /** Blocks until the subscription ends; returns whether it ended gracefully (and so deserves a response). */
  boolean await() throws InterruptedException {
    ended.await();
    return graceful && !broken;
  }
}
