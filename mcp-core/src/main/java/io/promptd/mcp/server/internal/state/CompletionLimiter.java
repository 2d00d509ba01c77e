package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.spi.Caller;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Rate-limits {@code completion/complete} per client (completion.mdx, security: implementations
 * MUST "implement appropriate rate limiting"): one token bucket per client key, refilled at
 * {@code perSecond} up to {@code burst}. A bucket that has refilled completely is no different from
 * a missing one, so idle clients' buckets are dropped: the map only holds clients that completed
 * something within the last {@code burst / perSecond} seconds.
 */
public final class CompletionLimiter {
  /** How many buckets may accumulate before idle ones are swept out. */
  private static final int SWEEP_ABOVE = 1024;

  private static final AtomicLong SESSIONS = new AtomicLong();

  private final double perSecond;
  private final int burst;
  private final long refillNanos;
  private final LongSupplier clock;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
  private volatile long nextSweep;

  /**
   * @param perSecond tokens added per second; 0 turns the limit off
   * @param burst the most tokens a bucket holds: how many completions a client may send at once
   *     after a pause
   * @param clock nanoseconds, {@link System#nanoTime()} outside tests
   */
  CompletionLimiter(double perSecond, int burst, LongSupplier clock) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.refillNanos = perSecond > 0 ? (long) Math.ceil(burst / perSecond * 1e9) : 0;
    this.clock = clock;
  }

  /** A key no other session has, for a session's own bucket. */
  public static String sessionKey() {
    return "session:" + SESSIONS.incrementAndGet();
  }

  /**
   * The key of a stateless request's client: the token's subject under authorization, else the
   * address the transport saw, else {@code fallback} (the process, for a channel that cannot tell
   * clients apart).
   */
  public static String clientKey(Caller caller, @Nullable String remoteAddress, String fallback) {
    if (!caller.unrestricted() && caller.subject() != null) {
      return "subject:" + caller.subject();
    }
    return remoteAddress != null ? "address:" + remoteAddress : fallback;
  }

  /**
   * Takes a token from {@code client}'s bucket.
   *
   * @throws McpException {@link ErrorCodes#RATE_LIMITED} when the bucket is empty, saying when to
   *     retry
   */
  public void acquire(String client) {
    if (perSecond <= 0) {
      return;
    }
    long now = clock.getAsLong();
    sweepIfCrowded(now);
    Bucket bucket = buckets.computeIfAbsent(client, k -> new Bucket(burst, now));
    long waitNanos;
    synchronized (bucket) {
      bucket.refill(now, perSecond, burst);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      waitNanos = (long) Math.ceil((1 - bucket.tokens) / perSecond * 1e9);
    }
    long retryAfterMs = Math.max(1, (waitNanos + 999_999) / 1_000_000);
    throw new McpException(
        ErrorCodes.RATE_LIMITED,
        "completion rate limit exceeded: " + rate() + " per second; retry later",
        JsonObject.builder().put("retryAfterMs", retryAfterMs).build());
  }

  /** How many clients have a bucket now; for tests. */
  public int tracked() {
    return buckets.size();
  }

  private String rate() {
    return perSecond == Math.rint(perSecond)
        ? Long.toString((long) perSecond)
        : Double.toString(perSecond);
  }

  /**
   * Drops the buckets that have refilled completely, at most once per refill period, once there are
   * many.
   */
  private void sweepIfCrowded(long now) {
    if (buckets.size() < SWEEP_ABOVE || now - nextSweep < 0) {
      return;
    }
    nextSweep = now + refillNanos;
    for (Iterator<Bucket> it = buckets.values().iterator(); it.hasNext(); ) {
      Bucket b = it.next();
      synchronized (b) {
        if (now - b.last >= refillNanos) {
          it.remove();
        }
      }
    }
  }

  /** One client's tokens; guarded by itself. */
  private static final class Bucket {
    double tokens;
    long last;

    Bucket(int tokens, long now) {
      this.tokens = tokens;
      this.last = now;
    }

    void refill(long now, double perSecond, int burst) {
      long elapsed = now - last;
      if (elapsed > 0) {
        tokens = Math.min(burst, tokens + elapsed * perSecond / 1e9);
        last = now;
      }
    }
  }
}
