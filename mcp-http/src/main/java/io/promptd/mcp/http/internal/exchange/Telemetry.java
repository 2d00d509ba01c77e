package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What the transport tells its embedder about itself: one {@link RequestEvent} per finished
 * request, the number of open SSE streams, and whether the embedder's readiness checks pass
 * ({@code /healthz}, {@code /readyz}).
 */
public final class Telemetry {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final List<Consumer<RequestEvent>> listeners;
  private final Map<String, BooleanSupplier> checks;
  private final AtomicInteger openStreams = new AtomicInteger();

  /** Makes the events of finished requests, for their exchanges. */
  final EventFactory events;

  /** @param events makes the events of finished requests */
  public Telemetry(
      List<Consumer<RequestEvent>> listeners,
      Map<String, BooleanSupplier> checks,
      EventFactory events) {
    this.listeners = List.copyOf(listeners);
    this.events = events;
    this.checks = new LinkedHashMap<>(checks);
  }

  /** Whether anyone listens for request events: without listeners, requests record nothing. */
  boolean recording() {
    return !listeners.isEmpty();
  }

  /**
   * Hands a finished request to every listener; a listener that throws is logged and does not
   * affect the others.
   */
  void finished(RequestEvent event) {
    for (Consumer<RequestEvent> listener : listeners) {
      try {
        listener.accept(event);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a request listener failed", e);
      }
    }
  }

  void streamOpened() {
    openStreams.incrementAndGet();
  }

  void streamClosed() {
    openStreams.decrementAndGet();
  }

  public int openStreams() {
    return openStreams.get();
  }

  /**
   * The names of the readiness checks that fail now (a check that throws fails), in the order they
   * were added.
   */
  public List<String> notReady() {
    List<String> failing = new ArrayList<>();
    checks.forEach((name, check) -> {
      boolean ready;
      try {
        ready = check.getAsBoolean();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "readiness check '" + name + "' failed", e);
        ready = false;
      }
      if (!ready) {
        failing.add(name);
      }
    });
    return failing;
  }

  /**
   * The {@code /readyz} body: {@code {"status":"ready"}}, or the failing checks' names (nothing
   * more).
   */
  public static byte[] readinessBody(List<String> notReady) {
    JsonObject.Builder body =
        JsonObject.builder().put("status", notReady.isEmpty() ? "ready" : "not ready");
    if (!notReady.isEmpty()) {
      body.put("failing", new JsonArray(notReady.stream().<Json>map(Json::of).toList()));
    }
    return JsonCodec.writeBytes(body.build(), false);
  }

  /** The {@code /healthz} body. */
  public static byte[] aliveBody() {
    return JsonCodec.writeBytes(JsonObject.builder().put("status", "alive").build(), false);
  }
}
