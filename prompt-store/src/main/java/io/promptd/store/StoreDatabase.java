package io.promptd.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.promptd.mcp.api.Stability;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;

/**
 * One process's hold on the store's database: one connection pool and one listening connection,
 * shared by everything that uses the store in that process (the {@link PromptStore}, the
 * {@link StoreLibrary}'s change feed, the legacy sessions of {@code io.promptd.store.sessions}).
 * Open it once, hand it to each of them, close it last.
 *
 * <p>The pool holds at most five connections, opened on use and closed after a minute idle: the
 * sessions' four short statements at once (one per request being served) and one for the library
 * feed's catch-up, which can take seconds on a large first load. With the listening connection that
 * is six per replica, as many as the library's feed and the sessions' pool and feed held when each
 * had its own.
 *
 * <p>The listening connection is opened when the first {@link #listen listener} registers: it
 * applies the schema migrations, {@code LISTEN}s on every channel listeners asked for, hands each
 * notification's payload to the listeners of its channel, checks itself when nothing was heard for
 * 5 s, and reconnects with backoff (100 ms doubling up to 5 s) when lost, telling the listeners,
 * which catch up when it is back.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreDatabase implements AutoCloseable {
  /**
   * How long a short statement waits for a pooled connection, and a check of one for an answer: a
   * request never waits long for a database that is away (it goes on without it, see
   * {@code StoreSessions}).
   */
  private static final long SHORT_WAIT_MILLIS = 1_000;
  /** How long a short statement waits for each answer of the database. */
  private static final int ANSWER_MILLIS = 5_000;
  /**
   * How long a publish, a history or a library load waits for a pooled connection before it fails.
   */
  static final long LONG_WAIT_MILLIS = 10_000;

  private final StoreUrl url;
  private final HikariDataSource pool;
  private final Schema schema;
  private final Listening listening;

  private StoreDatabase(StoreUrl url, HikariDataSource pool) {
    this.url = url;
    this.pool = pool;
    this.schema = new Schema(url);
    this.listening = new Listening(url, schema);
  }

  /**
   * Starts using the store at {@code url}: creates the pool, which connects on use. A database that
   * is away now is not an error here; each use reports it (or, for the sessions, goes on without
   * it).
   */
  public static StoreDatabase open(StoreUrl url) {
    requireNonNull(url, "url");
    HikariConfig config = new HikariConfig();
    config.setPoolName("promptd-store");
    config.setJdbcUrl(url.jdbcUrl());
    if (url.user() != null) {
      config.setUsername(url.user());
    }
    if (url.password() != null) {
      config.setPassword(url.password());
    }
    config.setMaximumPoolSize(5);
    config.setMinimumIdle(0);
    // The short wait is the pool's own; a long one is made of several (see connection(long)).
    config.setConnectionTimeout(SHORT_WAIT_MILLIS);
    config.setValidationTimeout(SHORT_WAIT_MILLIS);
    config.setInitializationFailTimeout(
        -1); // a database away at start is not an error: tried on use
    config.setIdleTimeout(60_000);
    config.setMaxLifetime(30 * 60_000);
    config.setAutoCommit(true);
    // A host that does not answer costs the pool 2 s per try, not the driver's 10: it is back
    // sooner when it is back.
    config.addDataSourceProperty("connectTimeout", "2");
    return new StoreDatabase(url, new HikariDataSource(config));
  }

  /** Where the store is, without the password. */
  public StoreUrl url() {
    return url;
  }

  /**
   * A pooled connection, in auto-commit mode, for a short statement: waits at most 1 s for one and
   * 5 s for each answer, so that a caller serving a request never waits long for a database that is
   * away. Close it to hand it back.
   *
   * @throws SQLException when the database is away or slow
   */
  public Connection connection() throws SQLException {
    Connection c = pool.getConnection();
    try {
      c.setNetworkTimeout(
          Runnable::run, ANSWER_MILLIS); // the pool resets it when the connection comes back
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * A pooled connection, in auto-commit mode, waiting up to {@code waitMillis} for one, with no
   * limit on answers (a publish or a library load may take long): for the store's own work.
   */
  Connection connection(long waitMillis) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    while (true) {
      try {
        return pool.getConnection();
      } catch (SQLTransientConnectionException e) {
        // The pool's own wait is the short one; the pool goes on trying to connect meanwhile.
        if (pool.isClosed() || System.nanoTime() - deadline >= 0) {
          throw e;
        }
      }
    }
  }

  /**
   * Brings the store's schema up to date (once per process; safe when several processes start at
   * once), on a connection of its own tried once. Whoever uses a table calls this first, unless the
   * listening connection did it already.
   *
   * @throws StoreException when the database cannot be reached or migrated
   */
  public void migrate() throws StoreException {
    schema.migrate();
  }

  /**
   * Creates the store's schema or brings it up to date, as {@code promptd store init} does: unlike
   * {@link #migrate()}, it first checks that the role it connects as may (log in and connect,
   * create tables in the schema its {@code search_path} picks, change the store's tables when they
   * exist), and says what the role lacks, with the statement that grants it, when it may not.
   *
   * @return the version the schema was at and is at now
   * @throws StoreException when the database cannot be reached, the role lacks a right (the message
   *     says which, and how to grant it), or a migration fails
   */
  public SchemaInit init() throws StoreException {
    return schema.init();
  }

  /**
   * Hands every notification on {@code channel} to {@code listener}, on the listening connection's
   * thread (which it must not hold long: each notification of every channel waits for it), and
   * tells it when that connection is up and when it is lost. Opens the listening connection when it
   * is the first listener; a channel new to an open connection is listened on within a quarter of a
   * second.
   *
   * @param channel a PostgreSQL identifier: lowercase letters, digits and underscores
   * @return closing it stops the calls
   */
  public AutoCloseable listen(String channel, ChannelListener listener) {
    requireNonNull(channel, "channel");
    requireNonNull(listener, "listener");
    if (!channel.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("channel '" + channel + "' is not a lowercase identifier");
    }
    return listening.add(channel, listener);
  }

  /** Stops the listening connection and closes the pool. */
  @Override
  public void close() {
    listening.stop();
    pool.close();
  }
}
