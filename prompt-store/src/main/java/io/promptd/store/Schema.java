package io.promptd.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The store's schema, brought up to date once per process by whoever needs it first (the listening
 * connection, a publish, the session secret): the migrations under {@code promptd-store-migration}
 * on the classpath (or module path), applied by Flyway, which locks, so that processes starting
 * together migrate once.
 */
final class Schema {
  /**
   * The versions of the migrations under {@code promptd-store-migration} ({@code PromptStoreTest}
   * checks them against the files): a store whose history holds each of them needs no Flyway run.
   * There may be gaps (V5 was taken by work done in parallel); a migration that arrives below one
   * already applied is applied too ({@code outOfOrder}).
   */
  static final List<String> MIGRATIONS = List.of("1", "2", "3", "4", "5", "6", "7", "8");

  private final StoreUrl url;
  private volatile boolean migrated;

  Schema(StoreUrl url) {
    this.url = url;
  }

  /**
   * Migrates, checking first on a connection of its own, tried once: a database that is away fails
   * this at once, not after a pool's waits.
   */
  void migrate() throws StoreException {
    if (migrated) {
      return;
    }
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials())) {
      migrate(c);
    } catch (SQLException e) {
      throw StoreException.failed(
          "connect", "cannot connect to the store " + url + ": " + StoreException.reason(e));
    }
  }

  /**
   * Applies the migrations unless the store's schema history already holds each of
   * {@link #MIGRATIONS}, checked on {@code held}: one query instead of Flyway's start-up (class
   * loading, scanning the classpath, locking), which took seconds of a replica's start, and on a
   * connection the caller holds instead of one more (each costs a round of SCRAM authentication at
   * start).
   *
   * @param held a connection in auto-commit mode (a failed check must not leave a transaction
   *     aborted)
   */
  void migrate(Connection held) throws StoreException {
    if (migrated) {
      return;
    }
    if (!current(held)) {
      flyway();
    }
    migrated = true;
  }

  private void flyway() throws StoreException {
    try {
      Flyway.configure(Schema.class.getClassLoader())
          .dataSource(url.jdbcUrl(), url.user(), url.password())
          .locations("classpath:promptd-store-migration")
          .table("promptd_schema_history")
          .outOfOrder(true)
          .loggers("slf4j")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw StoreException.failed(
          "migrate the store's schema",
          "cannot migrate the store " + url + ": " + StoreException.reason(e));
    }
  }

  /**
   * Whether the schema history holds every one of {@link #MIGRATIONS}, applied; false when it
   * cannot tell.
   */
  private static boolean current(Connection c) {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT count(DISTINCT version) FROM promptd_schema_history WHERE success AND version = ANY (?)")) {
      s.setArray(1, c.createArrayOf("text", MIGRATIONS.toArray()));
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getInt(1) == MIGRATIONS.size();
      }
    } catch (SQLException e) {
      // No history yet (a new store), or the database is away: Flyway decides and reports
      return false;
    }
  }
}
