package io.promptd.mcp.http.internal.exchange;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * At most so many long-lived event streams open at once per client: legacy GET streams, 2026-07-28
 * {@code subscriptions/listen} streams and HTTP+SSE streams, counted together. A client is its
 * access token's subject, else its address (the forwarded one behind a trusted proxy). One more is
 * refused with 429.
 */
public final class StreamLimit {
  private final int max;
  private final Map<String, Integer> open = new ConcurrentHashMap<>();

  /** @param max the most streams one client may hold open */
  public StreamLimit(int max) {
    this.max = max;
  }

  /**
   * Takes a stream for the exchange's client; returns the key to {@link #release} it with, or null
   * after refusing the request with 429.
   */
  @Nullable
  public String acquire(Exchange ex) {
    String key = clientOf(ex);
    boolean[] refused = {false};
    open.compute(key, (k, n) -> {
      int now = n == null ? 0 : n;
      if (now >= max) {
        refused[0] = true;
        return n;
      }
      return now + 1;
    });
    if (refused[0]) {
      ex.refuse(
          429,
          "Too Many Requests: this client has " + max
              + " event streams open already; close one first");
      return null;
    }
    return key;
  }

  /** Gives back a stream {@link #acquire} took. */
  public void release(String key) {
    open.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  private static String clientOf(Exchange ex) {
    String subject = ex.caller().subject();
    if (!ex.caller().unrestricted() && subject != null) {
      return "subject:" + subject;
    }
    String address = ex.remoteAddress();
    return address != null ? "address:" + address : "unknown";
  }
}
