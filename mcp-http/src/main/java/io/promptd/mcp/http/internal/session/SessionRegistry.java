package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.internal.exchange.CallerKey;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The open legacy sessions by id. Ids are 256 random bits from {@link SecureRandom}, so they cannot
 * be guessed; a sweeper closes sessions idle longer than the configured timeout so that abandoned
 * ones never pile up.
 *
 * <p>Each caller ({@link CallerKey}) may hold a quota of the sessions, so that one caller cannot
 * take every place under the global limit: a caller at its quota that opens another loses its least
 * recently used idle session, ended as if it had expired. When all of them are in use (a request or
 * a GET stream), the new one is refused instead.
 *
 * <p>A few callers at their quota can still fill the global limit together. A new session then
 * takes the place of the least recently used idle session of the caller holding the most, so that
 * they cannot lock everyone else out; only when no session at all is idle is the new one refused.
 */
public final class SessionRegistry {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  private static final Base64.Encoder ID_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final Map<String, LegacySession> sessions = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final SessionClock clock;
  private final long idleNanos;
  private final int max;
  private final int perCaller;
  private final AtomicLong sweeps = new AtomicLong();
  private final ScheduledExecutorService sweeper;
  private final ScheduledFuture<?> sweeping;
  private volatile Consumer<Collection<LegacySession>> afterSweep = held -> {};
  private volatile Consumer<LegacySession> onEvict = evicted -> {};

  /**
   * @param max how many sessions may be open at once
   * @param perCaller how many of them one caller may hold
   */
  public SessionRegistry(Duration idleTimeout, int max, int perCaller, SessionClock clock) {
    this.clock = clock;
    this.idleNanos = idleTimeout.toNanos();
    this.max = max;
    this.perCaller = perCaller;
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
  public SessionClock clock() {
    return clock;
  }

  /** A fresh, unguessable session id: 43 visible ASCII characters. */
  public String newId() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return ID_ENCODER.encodeToString(bytes);
  }

  /** Whether another session fits under the limit. */
  public boolean hasRoom() {
    return sessions.size() < max;
  }

  /** How many sessions one caller may hold. */
  public int perCaller() {
    return perCaller;
  }

  /**
   * Makes a place for one more session of {@code owner}: while it holds its quota, ends its least
   * recently used idle session; while the registry is full, that of the caller holding the most.
   * Returns false, ending nothing, when too many of {@code owner}'s are in use; {@link #hasRoom}
   * says whether the global limit still leaves none.
   */
  public boolean makeRoom(String owner) {
    List<LegacySession> evicted;
    synchronized (this) {
      evicted = takeRoom(owner);
    }
    return ended(evicted);
  }

  /**
   * Adds {@code session} within its owner's quota (see {@link #makeRoom}); false, adding nothing,
   * when it does not fit.
   */
  public boolean add(LegacySession session) {
    List<LegacySession> evicted;
    synchronized (this) {
      evicted = takeRoom(session.owner());
      if (evicted != null) {
        sessions.put(session.id(), session);
      }
    }
    return ended(evicted);
  }

  /**
   * Adds {@code session} (within its owner's quota) unless one with its id is there: returns the
   * one that is there now, or null when it does not fit.
   */
  @Nullable
  LegacySession addIfAbsent(LegacySession session) {
    List<LegacySession> evicted;
    LegacySession there;
    synchronized (this) {
      there = sessions.get(session.id());
      evicted = there == null ? takeRoom(session.owner()) : List.of();
      if (there == null && evicted != null) {
        sessions.put(session.id(), session);
        there = session;
      }
    }
    return ended(evicted) ? there : null;
  }

  /**
   * Runs {@code task} with each session ended to make room for another of its owner's, after it was
   * closed.
   */
  void onEvict(Consumer<LegacySession> task) {
    this.onEvict = task;
  }

  /**
   * Removes as many of {@code owner}'s idle sessions, least recently used first, as it takes to
   * bring it under its quota, then, while the registry is full, the least recently used idle
   * session of the caller holding the most: the removed ones (to be closed outside the lock), or
   * null when too few of {@code owner}'s are idle. Holds the lock.
   */
  private @Nullable List<LegacySession> takeRoom(String owner) {
    List<LegacySession> mine = new ArrayList<>();
    for (LegacySession s : sessions.values()) {
      if (s.owner().equals(owner) && !s.closed()) {
        mine.add(s);
      }
    }
    int excess = mine.size() - perCaller + 1;
    List<LegacySession> evicted = new ArrayList<>();
    if (excess > 0) {
      mine.removeIf(LegacySession::busy);
      if (mine.size() < excess) {
        return null;
      }
      mine.sort(Comparator.comparingLong(LegacySession::lastActive));
      evicted.addAll(mine.subList(0, excess));
      evicted.forEach(s -> sessions.remove(s.id(), s));
    }
    while (sessions.size() >= max) {
      LegacySession idlest = idlestOfTheLargestHolder();
      if (idlest == null) {
        break; // every session in use: the new one is refused
      }
      sessions.remove(idlest.id(), idlest);
      evicted.add(idlest);
    }
    return evicted;
  }

  /**
   * The least recently used idle session of the caller holding the most sessions that has an idle
   * one (of two holding as many, the one whose idle session is older), or null when none is idle.
   * Holds the lock.
   */
  private @Nullable LegacySession idlestOfTheLargestHolder() {
    Map<String, Integer> held = new HashMap<>();
    Map<String, LegacySession> idlest = new HashMap<>();
    for (LegacySession s : sessions.values()) {
      if (s.closed()) {
        continue;
      }
      held.merge(s.owner(), 1, Integer::sum);
      if (!s.busy()) {
        idlest.merge(s.owner(), s, (a, b) -> b.lastActive() - a.lastActive() < 0 ? b : a);
      }
    }
    LegacySession chosen = null;
    int most = 0;
    for (Map.Entry<String, LegacySession> e : idlest.entrySet()) {
      int n = held.getOrDefault(e.getKey(), 0);
      LegacySession s = e.getValue();
      if (chosen == null || n > most || (n == most && s.lastActive() - chosen.lastActive() < 0)) {
        chosen = s;
        most = n;
      }
    }
    return chosen;
  }

  /** Closes what {@link #takeRoom} removed; whether it made room. */
  private boolean ended(@Nullable List<LegacySession> evicted) {
    if (evicted == null) {
      return false;
    }
    for (LegacySession s : evicted) {
      s.close();
      try {
        onEvict.accept(s);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "ending an evicted session failed", e);
      }
    }
    if (!evicted.isEmpty()) {
      LOG.log(
          Level.DEBUG,
          "ended {0} idle session(s) to make room: a caller at its quota of {1}, or the limit of {2}"
              + " reached",
          evicted.size(),
          perCaller,
          max);
    }
    return true;
  }

  /** Runs {@code task} with the sessions still open after each sweep, on the sweeper's thread. */
  void afterSweep(Consumer<Collection<LegacySession>> task) {
    this.afterSweep = task;
  }

  @Nullable
  public LegacySession get(String id) {
    LegacySession s = sessions.get(id);
    return s == null || s.closed() ? null : s;
  }

  /** Removes and closes a session; false when there was none. */
  public boolean remove(String id) {
    LegacySession s = sessions.remove(id);
    if (s == null) {
      return false;
    }
    s.close();
    return true;
  }

  public int size() {
    return sessions.size();
  }

  /** How many sweeps have finished, follow-up included; for tests. */
  public long sweeps() {
    return sweeps.get();
  }

  /** Closes every session and stops sweeping. */
  public void closeAll() {
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
    sweeps.incrementAndGet();
  }
}
