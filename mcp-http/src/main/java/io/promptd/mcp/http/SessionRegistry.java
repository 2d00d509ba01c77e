package io.promptd.mcp.http;

import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The open legacy sessions by id. Ids are 256 random bits from {@link SecureRandom}, so they cannot be guessed; a
 * sweeper closes sessions idle longer than the configured timeout so that abandoned ones never pile up.
 */
final class SessionRegistry {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  private static final Base64.Encoder ID_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final Map<String, LegacySession> sessions = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final SessionClock clock;
  private final long idleNanos;
  private final int max;
  private final ScheduledExecutorService sweeper;
  private final ScheduledFuture<?> sweeping;
  private volatile Consumer<Collection<LegacySession>> afterSweep = held -> {};

  SessionRegistry(Duration idleTimeout, int max, SessionClock clock) {
    this.clock = clock;
    this.idleNanos = idleTimeout.toNanos();
    this.max = max;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "promptd-http-session-sweeper");
      t.setDaemon(true);
      return t;
    });
    long period = Math.clamp(idleTimeout.toMillis() / 4, 10, 30_000);
    this.sweeping =
        sweeper.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  /** The clock that idle expiry goes by. */
  SessionClock clock() {
    return clock;
  }

  /** A fresh, unguessable session id: 43 visible ASCII characters. */
  String newId() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return ID_ENCODER.encodeToString(bytes);
  }

  /** Whether another session fits under the limit. */
  boolean hasRoom() {
    return sessions.size() < max;
  }

  void add(LegacySession session) {
    sessions.put(session.id(), session);
  }

  /** Adds {@code session} unless one with its id is there: returns the one that is there now. */
  LegacySession addIfAbsent(LegacySession session) {
    LegacySession there = sessions.putIfAbsent(session.id(), session);
    return there == null ? session : there;
  }

  /** Runs {@code task} with the sessions still open after each sweep, on the sweeper's thread. */
  void afterSweep(Consumer<Collection<LegacySession>> task) {
    this.afterSweep = task;
  }

  @Nullable
  LegacySession get(String id) {
    LegacySession s = sessions.get(id);
    return s == null || s.closed() ? null : s;
  }

  /** Removes and closes a session; false when there was none. */
  boolean remove(String id) {
    LegacySession s = sessions.remove(id);
    if (s == null) {
      return false;
    }
    s.close();
    return true;
  }

  int size() {
    return sessions.size();
  }

  /** Closes every session and stops sweeping. */
  void closeAll() {
    sweeping.cancel(false);
    sweeper.shutdownNow();
    for (String id : List.copyOf(sessions.keySet())) {
      remove(id);
    }
  }

  private void sweep() {
    long now = clock.nanoTime();
    int expired = 0;
    for (LegacySession s : List.copyOf(sessions.values())) {
      if (s.idle(now, idleNanos) && sessions.remove(s.id(), s)) {
        s.close();
        expired++;
      }
    }
    if (expired > 0) {
      LOG.log(Level.DEBUG, "expired {0} idle session(s)", expired);
    }
    try {
      afterSweep.accept(List.copyOf(sessions.values()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the session sweep's follow-up failed", e);
    }
  }
}
