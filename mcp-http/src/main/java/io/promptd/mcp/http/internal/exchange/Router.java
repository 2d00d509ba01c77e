package io.promptd.mcp.http.internal.exchange;

import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The paths one listener serves, each by its own {@link Route}: exact paths, the first route
 * mounted at a path wins. Routes may be mounted after the server started (the OAuth metadata, once
 * the resource's URL is known); readers see an immutable snapshot swapped atomically and never
 * lock.
 */
public final class Router {
  private volatile Map<String, Route> routes = Map.of();
  private final Route notFound;

  /** @param notFound what answers a path no route serves */
  public Router(Route notFound) {
    this.notFound = notFound;
  }

  /**
   * Serves {@code path} with {@code route}, unless a route serves it already; returns whether it
   * was mounted.
   */
  public synchronized boolean mount(String path, Route route) {
    if (routes.containsKey(path)) {
      return false;
    }
    Map<String, Route> next = new HashMap<>(routes);
    next.put(path, route);
    routes = Map.copyOf(next);
    return true;
  }

  /** The route serving {@code path}, or null when none does. */
  @Nullable
  Route find(String path) {
    return routes.get(path);
  }

  /** The route serving {@code path}, or the not-found route. */
  public Route route(String path) {
    Route r = routes.get(path);
    return r != null ? r : notFound;
  }
}
