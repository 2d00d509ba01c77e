package io.promptd.mcp.client;

import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Methods;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client's watches of the server's prompt list ({@link McpClient#watchPrompts}): the listeners, a
 * modern server's {@code subscriptions/listen} streams and their acknowledgements, and the
 * notifications that reach them.
 */
final class PromptWatches {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private final McpClient client;
  private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();
  private final Set<RequestId> subscriptions = ConcurrentHashMap.newKeySet();
  private final Map<RequestId, CompletableFuture<Void>> acknowledgements =
      new ConcurrentHashMap<>();

  PromptWatches(McpClient client) {
    this.client = client;
  }

  /** Whether anything watches: a new legacy HTTP session then opens its event stream again. */
  boolean any() {
    return !changeListeners.isEmpty();
  }

  /** {@link McpClient#watchPrompts}, whose Javadoc says what it waits for and throws. */
  AutoCloseable watch(Runnable onChange) throws IOException {
    Channel channel = client.channel();
    ClientOptions options = client.options();
    if (!client.modern()) {
      if (channel instanceof HttpChannel http) {
        http.openEventStream(options.timeout());
      }
      changeListeners.add(onChange);
      return () -> changeListeners.remove(onChange);
    }
    Request listen = client.request(
        Methods.SUBSCRIPTIONS_LISTEN,
        JsonObject.builder()
            .put(
                "notifications",
                JsonObject.builder().put("promptsListChanged", true).build())
            .build());
    CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    acknowledgements.put(listen.id(), acknowledged);
    subscriptions.add(listen.id());
    changeListeners.add(onChange);
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      stopped.set(true);
      changeListeners.remove(onChange);
      subscriptions.remove(listen.id());
      acknowledgements.remove(listen.id());
      channel.cancel(listen);
    };
    var unused = channel.call(listen).whenComplete((response, failure) -> {
      if (acknowledged.isDone()) {
        if (!stopped.get() && (failure != null || response instanceof ErrorResponse)) {
          LOG.log(
              Level.WARNING,
              "the subscriptions/listen stream to {0} failed: {1}",
              channel.describe(),
              failure != null ? failure.getMessage() : ((ErrorResponse) response).message());
        }
        return;
      }
      acknowledged.completeExceptionally(
          switch (response) {
            case null -> failure;
            case ErrorResponse e ->
              new McpException(e.code(), "subscriptions/listen refused: " + e.message(), e.data());
            case ResultResponse r ->
              new IOException("the subscriptions/listen stream to " + channel.describe()
                  + " ended before the server acknowledged it");
          });
    });
    try {
      acknowledged.get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      stop.run();
      throw new RequestTimeoutException(
          "subscriptions/listen (no acknowledgement)", options.timeout());
    } catch (ExecutionException e) {
      stop.run();
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e.getCause() instanceof IOException io
          ? io
          : new IOException(
              "subscriptions/listen failed: " + McpClient.describe(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      stop.run();
      Thread.currentThread().interrupt();
      throw new IOException("subscriptions/listen interrupted", e);
    } finally {
      acknowledgements.remove(listen.id());
    }
    return stop::run;
  }

  void onNotification(Notification n) {
    if (n.method().equals(Methods.NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED)) {
      var id = n.paramsOrEmpty()
          .object("_meta")
          .orElse(JsonObject.EMPTY)
          .get("io.modelcontextprotocol/subscriptionId");
      if (id instanceof JsonString || id instanceof JsonNumber) {
        CompletableFuture<Void> waiting = acknowledgements.get(new RequestId(id));
        if (waiting != null) {
          waiting.complete(null);
        }
      }
      return;
    }
    if (!n.method().equals(Methods.NOTIFICATION_PROMPTS_LIST_CHANGED)) {
      return;
    }
    if (client.modern()) {
      JsonObject meta = n.paramsOrEmpty().object("_meta").orElse(JsonObject.EMPTY);
      var id = meta.get("io.modelcontextprotocol/subscriptionId");
      boolean ours = (id instanceof JsonString || id instanceof JsonNumber)
          && subscriptions.contains(new RequestId(id));
      if (!ours) {
        return;
      }
    }
    // Not on the channel's reader thread: a listener that calls the server (listPrompts, as
    // `promptd watch` does) would wait there for a response that only that thread can read.
    Thread.ofVirtual()
        .name("mcp-client-list-changed")
        .start(() -> changeListeners.forEach(Runnable::run));
  }
}
