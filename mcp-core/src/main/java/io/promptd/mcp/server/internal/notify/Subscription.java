package io.promptd.mcp.server.internal.notify;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Outbound;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * One open {@code subscriptions/listen} request. Every message on it carries the subscription id in
 * {@code _meta}; the acknowledgement is sent first, under the same lock that orders deliveries.
 */
public final class Subscription {
  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  private final RequestId id;
  private final Outbound stream;
  private final boolean promptsListChanged;
  private final boolean resourcesListChanged;
  private final boolean toolsListChanged;
  private final Set<String> resourceUris;
  private final Caller caller;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean graceful;
  private volatile boolean broken;
  private volatile String reason = "the server ended the subscription";

  public Subscription(RequestId id, Outbound stream, boolean promptsListChanged) {
    this(id, stream, promptsListChanged, false, false, Set.of(), Caller.UNRESTRICTED);
  }

  public Subscription(
      RequestId id,
      Outbound stream,
      boolean promptsListChanged,
      boolean resourcesListChanged,
      boolean toolsListChanged,
      Set<String> resourceUris,
      Caller caller) {
    this.id = id;
    this.stream = stream;
    this.promptsListChanged = promptsListChanged;
    this.resourcesListChanged = resourcesListChanged;
    this.toolsListChanged = toolsListChanged;
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

  boolean toolsListChanged() {
    return toolsListChanged;
  }

  /** Whether this subscription watches the resource at {@code uri}. */
  boolean watches(String uri) {
    return resourceUris.contains(uri);
  }

  public JsonObject meta() {
    return JsonObject.builder().put(SUBSCRIPTION_ID, id.value()).build();
  }

  /**
   * Sends a notification tagged with this subscription's id; a failed stream ends the subscription.
   */
  synchronized void deliver(String method, JsonObject params) {
    if (broken || ended.getCount() == 0) {
      return;
    }
    JsonObject tagged = params.toBuilder().put("_meta", meta()).build();
    try {
      stream.send(new Notification(method, tagged));
    } catch (RuntimeException e) {
      broken = true;
      ended.countDown();
    }
  }

  /**
   * Ends the subscription on the server's initiative ({@code why}: shutting down, the session
   * closed), which then tells the client so: see {@link #sayCancelled()}. Synchronized with
   * {@link #deliver}, so that a notification being written is finished before the teardown is
   * announced.
   */
  synchronized void end(String why) {
    if (ended.getCount() != 0) {
      reason = why;
      graceful = true;
      ended.countDown();
    }
  }

  /**
   * Tells the client the server tore this subscription down: {@code notifications/cancelled}
   * referencing the listen request (2026-07-28 cancellation: the server MUST send it when it tears
   * a subscription stream down), tagged like every message on the stream. The graceful
   * {@code subscriptions/listen} result follows it (subscriptions: SHOULD).
   *
   * @return whether it was written; a stream that fails takes no response either
   */
  public synchronized boolean sayCancelled() {
    if (broken) {
      return false;
    }
    try {
      stream.send(new Notification(
          Methods.NOTIFICATION_CANCELLED,
          JsonObject.builder()
              .put("requestId", id.value())
              .put("reason", reason)
              .put("_meta", meta())
              .build()));
      return true;
    } catch (RuntimeException e) {
      broken = true;
      return false;
    }
  }

  /**
   * Blocks until the subscription ends; returns whether it ended gracefully (and so deserves a
   * response).
   */
  public boolean await() throws InterruptedException {
    ended.await();
    return graceful && !broken;
  }
}
