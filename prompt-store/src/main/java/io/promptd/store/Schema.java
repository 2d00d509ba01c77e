package io.promptd.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The store's schema, brought up to date once per process by whoever needs it first (the listening connection, a
 * publish, the session secret): the migrations under {@code promptd-store-migration} on the classpath (or module
 * path), applied by Flyway, which locks, so that processes starting together migrate once.
 */
final class Schema {
  /**
   * The version of the newest migration under {@code promptd-store-migration} ({@code PromptStoreTest} checks it
   * against the files): a store whose history already ends there needs no Flyway run.
   */
  static final String NEWEST_MIGRATION = "5";

  private final StoreUrl url;
  private volatile boolean migrated;

  Schema(StoreUrl url) {
    this.url = url;
  }

  /**
   * Migrates, checking first on a connection of its own, tried once: a database that is away fails this at once, not
   * after a pool's waits.
   */
  void migrate() throws StoreException {
    if (migrated) {
      return;
    }
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials())) {
      migrate(c);
    } catch (SQLException e) {
      throw new StoreException(
          StoreException.Kind.FAILED,
          "cannot connect to the store " + url + ": " + StoreException.reason(e));
    }
  }

  /**
   * Applies the migrations unless the store's schema history already ends at {@link #NEWEST_MIGRATION}, checked on
   * {@code held}: one query instead of Flyway's start-up (class loading, scanning the classpath, locking), which took
   * 0.6–2 s of a replica's start, and on a connection the caller holds instead of one more (each costs a round of SCRAM
   * authentication at start).
   *
   * @param held a connection in auto-commit mode (a failed check must not leave a transaction aborted)
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
          .loggers("slf4j")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw new StoreException(
          StoreException.Kind.FAILED,
          "cannot migrate the store " + url + ": " + StoreException.reason(e));
    }
  }

  /** Whether the schema history's last successful migration is the newest one; false when it cannot tell. */
  private static boolean current(Connection c) {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version FROM promptd_schema_history WHERE success"
            + " ORDER BY installed_rank DESC LIMIT 1")) {
      return r.next() && NEWEST_MIGRATION.equals(r.getString(1));
    } catch (SQLException e) {
      return false; // no history yet (a new store), or the database is away: Flyway decides and
      // reports
    }
  }
}
