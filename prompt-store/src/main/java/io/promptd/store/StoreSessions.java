package io.promptd.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.promptd.mcp.http.SessionStore;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
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
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Legacy HTTP sessions kept in the store, so that every replica serving it sees the same sessions ({@link
 * SessionStore} for {@code io.promptd.mcp.http.HttpTransportBuilder#sessionStore}): a table with one row per session,
 * one short statement per operation, and {@code NOTIFY} on the channel {@code promptd_sessions} (the session's key)
 * when a session's state changes or it ends, which one dedicated connection per replica {@code LISTEN}s to.
 *
 * <p>When the database cannot be reached, nothing fails: each replica goes on from what it last knew of the sessions
 * it served (a session it never saw is trusted on its signed id, with the initial state), logs one warning, and tries
 * again after a second. What it changed meanwhile (new sessions, log levels, subscriptions, ends) is written to the
 * store when it is back, before anything else, and announced to the other replicas. The listening connection
 * reconnects with backoff (up to 5 s) and then re-reads every session this replica holds, so no change is missed.
 */
public final class StoreSessions implements SessionStore, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final int POLL_MILLIS = 5_000;

  private final StoreUrl url;
  private final HikariDataSource pool;
  /** What this replica last read or wrote of each session it served: what it goes on from when the store is away. */
  private final Map<String, Entry> known = new ConcurrentHashMap<>();
  /** What this replica changed while the store was away, to be written when it is back. */
  private final Map<String, Entry> offline = new ConcurrentHashMap<>();
  private final Set<Consumer<String>> listeners = new CopyOnWriteArraySet<>();
  private final CountDownLatch listening = new CountDownLatch(1);
  private final AtomicBoolean away = new AtomicBoolean();
  private final Object replaying = new Object();
  private final Thread feed;
  private volatile long retryAt;
  private volatile boolean migrated;
  private volatile boolean closed;
  private volatile @Nullable Connection connection;

  private StoreSessions(StoreUrl url, HikariDataSource pool) {
    this.url = url;
    this.pool = pool;
    this.feed = Thread.ofVirtual().name("promptd-session-feed").unstarted(this::listen);
  }

  /**
   * Starts using the store at {@code url} for sessions: a small pool with short timeouts (a request never waits long
   * for a database that is away) and the listening connection, which also applies the schema migrations. Waits up to
   * 3 s for the database, then goes on without it (it is tried again in the background).
   */
  public static StoreSessions open(StoreUrl url) {
    requireNonNull(url, "url");
    HikariConfig config = new HikariConfig();
    config.setPoolName("promptd-sessions");
    config.setJdbcUrl(url.jdbcUrl());
    if (url.user() != null) {
      config.setUsername(url.user());
    }
    if (url.password() != null) {
      config.setPassword(url.password());
    }
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(1_000);
    config.setValidationTimeout(1_000);
    config.setInitializationFailTimeout(-1); // a database away at start is not an error: tried on use
    config.setIdleTimeout(60_000);
    config.setMaxLifetime(30 * 60_000);
    config.addDataSourceProperty("connectTimeout", "2");
    config.addDataSourceProperty("socketTimeout", "5");
    StoreSessions s = new StoreSessions(url, new HikariDataSource(config));
    s.feed.start();
    try {
      s.listening.await(3, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return s;
  }

  /**
   * The secret that signs session ids, shared by every replica of this store: 32 random bytes, created by the first
   * replica that asks (concurrent first asks agree on one). Never logged.
   *
   * @throws StoreException when the store cannot be reached
   */
  public byte[] secret() throws StoreException {
    try {
      migrate();
      byte[] candidate = new byte[32];
      RANDOM.nextBytes(candidate);
      try (Connection c = pool.getConnection()) {
        return SessionQueries.secret(c, candidate);
      }
    } catch (SQLException | RuntimeException e) {
      throw new StoreException(StoreException.Kind.FAILED, "cannot read the session secret from the store " + url
          + ": " + PromptStore.reason(e));
    }
  }

  @Override
  public Optional<Entry> get(String key) {
    Optional<Entry> found = db(c -> SessionQueries.get(c, key));
    if (found != null) {
      found.ifPresentOrElse(e -> known.put(key, e), () -> known.remove(key));
      return found;
    }
    // Away: what this replica knows, else the session's signed id vouches for it (with the initial state).
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
    BiFunction<String, Entry, Entry> apply = (k, e) -> e.ended() ? e : new Entry(state == null ? e.state() : state,
        e.lastActive().isAfter(lastActive) ? e.lastActive() : lastActive, false);
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
    Entry ended = before == null ? new Entry("", Instant.now(), true)
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
   * Calls {@code listener} with the key of every session whose state changed or that ended, on any replica of this
   * store (including this one), from the listening connection's thread. Waits up to 2 s for that connection when it
   * is not there yet.
   */
  @Override
  public AutoCloseable onChange(Consumer<String> listener) {
    requireNonNull(listener, "listener");
    listeners.add(listener);
    try {
      listening.await(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return () -> listeners.remove(listener);
  }

  /** Whether the listening connection is up now, for tests. */
  boolean listening() {
    return connection != null;
  }

  /** Stops listening and closes the pool. */
  @Override
  public void close() {
    closed = true;
    Feeds.stop(connection, feed, "session feed");
    pool.close();
  }

  private interface Query<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code query}, or returns null when the store is away (then one warning, and no try for a second). */
  private <T> @Nullable T db(Query<T> query) {
    if (away.get() && System.nanoTime() - retryAt < 0) {
      return null;
    }
    try (Connection c = pool.getConnection()) {
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
        LOG.log(Level.WARNING, "session store " + url + " unreachable (" + PromptStore.reason(e) + "); serving"
            + " legacy sessions from this replica's memory, writing its changes when the store is back");
      }
      return null;
    }
  }

  /** Writes what was changed while the store was away, before anything newer, so that it is not overwritten. */
  private void replay(Connection c) throws SQLException {
    synchronized (replaying) {
      List<Map.Entry<String, Entry>> pending = List.copyOf(offline.entrySet());
      for (Map.Entry<String, Entry> e : pending) {
        SessionQueries.merge(c, e.getKey(), e.getValue());
        offline.remove(e.getKey(), e.getValue());
      }
      if (!pending.isEmpty()) {
        LOG.log(Level.INFO, "wrote " + pending.size() + " session change(s) made while the store was away");
      }
    }
  }

  private void migrate() throws SQLException {
    migrate(null);
  }

  /** Migrates once, checking on {@code held} (an auto-commit connection) when given, else on one from the pool. */
  private void migrate(@Nullable Connection held) throws SQLException {
    if (!migrated) {
      try {
        if (held != null) {
          PromptStore.migrate(url, held);
        } else {
          PromptStore.migrate(url, pool);
        }
      } catch (StoreException e) {
        throw new SQLException(e.getMessage(), e);
      }
      migrated = true;
    }
  }

  /** The listening connection's loop: LISTEN, hand each key heard to the listeners; reconnect with backoff. */
  private void listen() {
    long backoff = 100;
    boolean reconnected = false;
    while (!closed) {
      try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials())) {
        connection = c;
        migrate(c);
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + SessionQueries.CHANNEL);
        }
        if (!offline.isEmpty()) {
          replay(c);
        }
        if (reconnected) {
          // Notifications sent while this connection was gone are lost: re-read every session held here.
          List.copyOf(known.keySet()).forEach(this::tell);
        }
        reconnected = true;
        backoff = 100;
        listening.countDown();
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          PGNotification[] heard = pg.getNotifications(POLL_MILLIS);
          if (heard != null && heard.length > 0) {
            for (PGNotification n : heard) {
              tell(n.getParameter());
            }
          } else if (!c.isValid(2)) {
            throw new SQLException("the listening connection is no longer valid");
          } else if (!offline.isEmpty()) {
            replay(c);
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          break;
        }
        LOG.log(Level.DEBUG, "session feed of " + url + " lost (" + PromptStore.reason(e) + "); retrying in "
            + backoff + " ms");
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException ie) {
          break;
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
      } finally {
        connection = null;
      }
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
