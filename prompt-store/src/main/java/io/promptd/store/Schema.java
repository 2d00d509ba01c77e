package io.promptd.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jspecify.annotations.Nullable;

/**
 * The store's schema, brought up to date once per process by whoever needs it first (the listening
 * connection, a publish, the session secret): the migrations under {@code promptd-store-migration}
 * on the classpath (or module path), applied by Flyway, which locks, so that processes starting
 * together migrate once.
 */
final class Schema {
  /**
   * The versions of the migrations under {@code promptd-store-migration} ({@code PromptStoreTest}
   * checks them against the files): a store whose history holds each of them needs no Flyway run. A
   * migration that arrives below one already applied is applied too ({@link #needsOutOfOrder}).
   */
  static final List<String> MIGRATIONS = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9");

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
    Set<String> applied = applied(held);
    if (!applied.containsAll(MIGRATIONS)) {
      String lacking = lacking(held);
      if (lacking != null) {
        // The log names the role and the GRANT; the message, which may reach a remote caller, not.
        throw StoreException.failed(
            "migrate the store's schema", "cannot migrate the store " + url + ": " + lacking);
      }
      flyway(needsOutOfOrder(applied));
    }
    migrated = true;
  }

  /**
   * Creates or migrates the schema as {@code promptd store init} does: on a connection of its own,
   * and only after {@link SchemaRights} found that the role lacks nothing for it, so that a role
   * without the rights fails with what to grant rather than with a migration's failure.
   */
  SchemaInit init() throws StoreException {
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials())) {
      Set<String> applied = applied(c);
      int missing = (int) MIGRATIONS.stream().filter(v -> !applied.contains(v)).count();
      if (missing > 0) {
        String lacking = lacking(c);
        if (lacking != null) {
          throw new StoreException(StoreException.Kind.FAILED, lacking);
        }
        flyway(needsOutOfOrder(applied));
      }
      migrated = true;
      return new SchemaInit(highest(applied), highest(Set.copyOf(MIGRATIONS)), missing);
    } catch (SQLException e) {
      String refused = SchemaRights.refused(e, url);
      if (refused != null) {
        throw new StoreException(StoreException.Kind.FAILED, refused);
      }
      throw StoreException.failed(
          "connect", "cannot connect to the store " + url + ": " + StoreException.reason(e));
    }
  }

  private @Nullable String lacking(Connection c) throws StoreException {
    try {
      return SchemaRights.lacking(c);
    } catch (SQLException e) {
      throw StoreException.failed(
          "check the role's rights",
          "cannot check the role's rights in the store " + url + ": " + StoreException.reason(e));
    }
  }

  /** The newest of {@code versions} that is one of {@link #MIGRATIONS}; 0 for none. */
  private static int highest(Set<String> versions) {
    int highest = 0;
    for (String v : versions) {
      if (MIGRATIONS.contains(v)) {
        highest = Math.max(highest, Integer.parseInt(v));
      }
    }
    return highest;
  }

  /**
   * Whether a migration still to apply lies below one already applied, which only Flyway's
   * {@code outOfOrder} mode applies (and warns of). A new store, or one a release behind, needs it
   * not, so its schema is made without that warning.
   */
  static boolean needsOutOfOrder(Set<String> applied) {
    int highest = highest(applied);
    for (String v : MIGRATIONS) {
      if (!applied.contains(v) && Integer.parseInt(v) < highest) {
        return true;
      }
    }
    return false;
  }

  private void flyway(boolean outOfOrder) throws StoreException {
    try {
      Flyway.configure(Schema.class.getClassLoader())
          .dataSource(url.jdbcUrl(), url.user(), url.password())
          .locations("classpath:promptd-store-migration")
          .table("promptd_schema_history")
          .outOfOrder(outOfOrder)
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
   * The versions the schema history holds as applied; none when it cannot tell (no history yet, a
   * new store; or the database is away: Flyway then decides and reports).
   */
  private static Set<String> applied(Connection c) {
    try (PreparedStatement s = c.prepareStatement(
            "SELECT DISTINCT version FROM promptd_schema_history WHERE success AND version IS NOT NULL");
        ResultSet r = s.executeQuery()) {
      Set<String> out = new HashSet<>();
      while (r.next()) {
        out.add(r.getString(1));
      }
      return out;
    } catch (SQLException e) {
      return Set.of();
    }
  }
}
