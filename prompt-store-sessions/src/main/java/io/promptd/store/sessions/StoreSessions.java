package io.promptd.store.sessions;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.http.SessionStore;
import io.promptd.store.ChannelListener;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.StoreUrl;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Legacy HTTP sessions kept in the store, so that every replica serving it sees the same sessions
 * ({@link SessionStore} for {@code io.promptd.mcp.http.HttpTransportBuilder#sessionStore}): a table
 * with one row per session, one short statement per operation, and {@code NOTIFY} on the channel
 * {@code promptd_sessions} (the session's key) when a session's state changes or it ends, which the
 * {@link StoreDatabase}'s listening connection {@code LISTEN}s to (one per replica, shared with the
 * library feed).
 *
 * <p>When the database cannot be reached, nothing fails: each replica goes on from what it last
 * knew of the sessions it served (a session it never saw is trusted on its signed id, with the
 * initial state), logs one warning, and tries again after a second. What it changed meanwhile (new
 * sessions, log levels, subscriptions, ends) is written to the store when it is back, before
 * anything else, and announced to the other replicas. The listening connection reconnects with
 * backoff (up to 5 s) and then re-reads every session this replica holds, so no change is missed.
 * Statements use the database's short connections: at most 1 s waiting for one, 5 s for an answer.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreSessions implements SessionStore, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final StoreDatabase database;
  private final boolean ownsDatabase;
  private final StoreUrl url;
  /**
   * What this replica last read or wrote of each session it served: what it goes on from when the
   * store is away.
   */
  private final Map<String, Entry> known = new ConcurrentHashMap<>();
  /** What this replica changed while the store was away, to be written when it is back. */
  private final Map<String, Entry> offline = new ConcurrentHashMap<>();

  private final Set<Consumer<String>> listeners = new CopyOnWriteArraySet<>();
  private final CountDownLatch subscribed = new CountDownLatch(1);
  private final AtomicBoolean away = new AtomicBoolean();
  private final Object replaying = new Object();
  private volatile long retryAt;
  /** Whether the listening connection listens on the channel now. */
  private volatile boolean listening;

  private @Nullable AutoCloseable feed;

  private StoreSessions(StoreDatabase database, boolean ownsDatabase) {
    this.database = database;
    this.ownsDatabase = ownsDatabase;
    this.url = database.url();
  }

  /**
   * Starts using the store of {@code database} for sessions, with its pool and its listening
   * connection (which also applies the schema migrations). Waits up to 3 s for the database, then
   * goes on without it (it is tried again in the background). Closing the sessions leaves the
   * database open.
   */
  public static StoreSessions open(StoreDatabase database) {
    requireNonNull(database, "database");
    return open(database, false);
  }

  /**
   * Starts using the store at {@code url} for sessions, as {@link #open(StoreDatabase)} does with a
   * {@link StoreDatabase} of its own, closed with them.
   */
  public static StoreSessions open(StoreUrl url) {
    requireNonNull(url, "url");
    return open(StoreDatabase.open(url), true);
  }

  private static StoreSessions open(StoreDatabase database, boolean owns) {
    StoreSessions s = new StoreSessions(database, owns);
    s.feed = database.listen(SessionQueries.CHANNEL, s.new Feed());
    try {
      s.subscribed.await(3, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return s;
  }

  /**
   * The secret that signs session ids, shared by every replica of this store: 32 random bytes,
   * created by the first replica that asks (concurrent first asks agree on one). Never logged.
   *
   * @throws StoreException when the store cannot be reached
   */
  public byte[] secret() throws StoreException {
    try {
      database.migrate();
      byte[] candidate = new byte[32];
      RANDOM.nextBytes(candidate);
      try (Connection c = database.connection()) {
        return SessionQueries.secret(c, candidate);
      }
    } catch (StoreException e) {
      throw new StoreException(
          StoreException.Kind.FAILED,
          "cannot read the session secret from the store " + url + ": " + e.getMessage());
    } catch (SQLException | RuntimeException e) {
      throw new StoreException(
          StoreException.Kind.FAILED,
          "cannot read the session secret from the store " + url + ": " + StoreException.reason(e));
    }
  }

  @Override
  public Optional<Entry> get(String key) {
    Optional<Entry> found = db(c -> SessionQueries.get(c, key));
    if (found != null) {
      found.ifPresentOrElse(e -> known.put(key, e), () -> known.remove(key));
      return found;
    }
    // Away: what this replica knows, else the session's signed id vouches for it (with the initial
    // state).
    return Optional.of(known.computeIfAbsent(key, k -> new Entry("", Instant.now(), false)));
  }

  @Override
  public boolean create(String key, Entry entry) {
    Boolean done = db(c -> SessionQueries.create(c, key, entry));
    if (done != null) {
      if (done) {
        known.put(key, entry);
      }
      return done;
    }
    boolean added = known.putIfAbsent(key, entry) == null;
    if (added) {
      offline.put(key, entry);
    }
    return added;
  }

  @Override
  public boolean update(String key, @Nullable String state, Instant lastActive) {
    BiFunction<String, Entry, Entry> apply = (k, e) -> e.ended()
        ? e
        : new Entry(
            state == null ? e.state() : state,
            e.lastActive().isAfter(lastActive) ? e.lastActive() : lastActive,
            false);
    Boolean done = db(c -> SessionQueries.update(c, key, state, lastActive));
    if (done != null) {
      if (done) {
        known.computeIfPresent(key, apply);
      }
      return done;
    }
    Entry now = known.computeIfPresent(key, apply);
    if (now == null || now.ended()) {
      return false;
    }
    if (state != null) {
      offline.put(key, now);
    } else {
      offline.computeIfPresent(key, (k, e) -> now); // a use alone is written only with a change
    }
    return true;
  }

  @Override
  public boolean touch(String key, Instant lastActive) {
    return update(key, null, lastActive);
  }

  @Override
  public boolean end(String key) {
    Boolean done = db(c -> SessionQueries.end(c, key));
    if (done != null) {
      known.computeIfPresent(key, (k, e) -> new Entry(e.state(), e.lastActive(), true));
      return done;
    }
    Entry before = known.get(key);
    Entry ended = before == null
        ? new Entry("", Instant.now(), true)
        : new Entry(before.state(), before.lastActive(), true);
    known.put(key, ended);
    offline.put(key, ended);
    return before == null || !before.ended();
  }

  @Override
  public int expire(Instant cutoff) {
    int forgotten = known.size();
    known.values().removeIf(e -> e.lastActive().isBefore(cutoff));
    forgotten -= known.size();
    offline.values().removeIf(e -> e.lastActive().isBefore(cutoff));
    Integer removed = db(c -> SessionQueries.expire(c, cutoff));
    return removed != null ? removed : Math.max(0, forgotten);
  }

  /**
   * Calls {@code listener} with the key of every session whose state changed or that ended, on any
   * replica of this store (including this one), from the listening connection's thread. Waits up to
   * 2 s for that connection when it is not there yet.
   */
  @Override
  public AutoCloseable onChange(Consumer<String> listener) {
    requireNonNull(listener, "listener");
    listeners.add(listener);
    try {
      subscribed.await(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return () -> listeners.remove(listener);
  }

  /** Whether the listening connection is up now, for tests. */
  boolean listening() {
    return listening;
  }

  /** Stops listening (and closes the database when it is their own). */
  @Override
  public void close() {
    AutoCloseable f = feed;
    if (f != null) {
      try {
        f.close();
      } catch (Exception e) {
        throw new IllegalStateException("never fails", e);
      }
    }
    if (ownsDatabase) {
      database.close();
    }
  }

  private interface Query<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code query}, or returns null when the store is away (then one warning, and no try for a
   * second).
   */
  private <T> @Nullable T db(Query<T> query) {
    if (away.get() && System.nanoTime() - retryAt < 0) {
      return null;
    }
    try (Connection c = database.connection()) {
      if (!offline.isEmpty()) {
        replay(c);
      }
      T result = query.run(c);
      if (away.compareAndSet(true, false)) {
        LOG.log(Level.INFO, "session store " + url + " reachable again");
      }
      return result;
    } catch (SQLException | RuntimeException e) {
      retryAt = System.nanoTime() + RETRY_NANOS;
      if (away.compareAndSet(false, true)) {
        LOG.log(
            Level.WARNING,
            "session store " + url + " unreachable (" + StoreException.reason(e) + "); serving"
                + " legacy sessions from this replica's memory, writing its changes when the store is back");
      }
      return null;
    }
  }

  /**
   * Writes what was changed while the store was away, before anything newer, so that it is not
   * overwritten.
   */
  private void replay(Connection c) throws SQLException {
    synchronized (replaying) {
      List<Map.Entry<String, Entry>> pending = List.copyOf(offline.entrySet());
      for (Map.Entry<String, Entry> e : pending) {
        SessionQueries.merge(c, e.getKey(), e.getValue());
        offline.remove(e.getKey(), e.getValue());
      }
      if (!pending.isEmpty()) {
        LOG.log(
            Level.INFO,
            "wrote " + pending.size() + " session change(s) made while the store was away");
      }
    }
  }

  /**
   * Writes what was changed while the store was away now, else at the next chance (a request, or 5
   * s later).
   */
  private void replayQuietly() {
    if (offline.isEmpty()) {
      return;
    }
    try (Connection c = database.connection()) {
      replay(c);
    } catch (SQLException | RuntimeException e) {
      LOG.log(
          Level.DEBUG,
          "session changes made while the store " + url + " was away not written yet ("
              + StoreException.reason(e) + ")");
    }
  }

  /**
   * What the listening connection tells the sessions: the keys heard, and when it is (back) up or
   * lost.
   */
  private final class Feed implements ChannelListener {
    @Override
    public void listening(boolean again) {
      replayQuietly();
      if (again) {
        // Notifications sent while the connection was gone are lost: re-read every session held
        // here.
        List.copyOf(known.keySet()).forEach(StoreSessions.this::tell);
      }
      listening = true;
      subscribed.countDown();
    }

    @Override
    public void notified(String key) {
      tell(key);
    }

    @Override
    public void quiet() {
      replayQuietly();
    }

    @Override
    public void lost(Exception cause, long retryMillis) {
      listening = false;
      LOG.log(
          Level.DEBUG,
          "session feed of " + url + " lost (" + StoreException.reason(cause) + "); retrying in "
              + retryMillis + " ms");
    }
  }

  private void tell(String key) {
    for (Consumer<String> l : listeners) {
      try {
        l.accept(key);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a session store listener failed", e);
      }
    }
  }
}
