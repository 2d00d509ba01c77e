package io.promptd.store;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * What the role {@code promptd store init} connects as must be allowed, checked before Flyway runs,
 * so that an operator reads what the role lacks and the statement that grants it rather than a
 * migration's failure: to log in and connect to the database, to create tables in the schema its
 * {@code search_path} picks (since PostgreSQL 15 {@code public} allows that only to the database's
 * owner), and, for a store made before, to change the store's tables (only their owner may).
 */
final class SchemaRights {
  private static final String QUERY = """
      SELECT quote_ident(current_user), quote_ident(current_database()),
             quote_ident(current_schema()),
             current_schema() IS NOT NULL AND has_schema_privilege(current_schema(), 'CREATE'),
             t.tableowner, t.tableowner IS NULL OR pg_has_role(t.tableowner, 'USAGE')
      FROM (SELECT 1) AS one
      LEFT JOIN pg_tables t
        ON t.schemaname = current_schema() AND t.tablename = 'promptd_schema_history'
      """;

  private SchemaRights() {}

  /**
   * What the role connected on {@code c} lacks to create or migrate the schema, with the statement
   * that grants it; null when it lacks nothing.
   */
  static @Nullable String lacking(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(QUERY);
        ResultSet r = s.executeQuery()) {
      r.next();
      String role = r.getString(1);
      String database = r.getString(2);
      String schema = r.getString(3);
      if (schema == null) {
        return "role " + role + " has no schema to create the store's tables in (no schema of its"
            + " search_path exists in database " + database + "): as a superuser, ALTER ROLE "
            + role + " SET search_path = public";
      }
      if (!r.getBoolean(4)) {
        return "role " + role + " may not create tables in schema " + schema + " of database "
            + database + ": as the database's owner or a superuser, GRANT CREATE ON SCHEMA "
            + schema + " TO " + role + " (since PostgreSQL 15 only the database's owner may by"
            + " default; a new store's database is best made with CREATE DATABASE " + database
            + " OWNER " + role + ")";
      }
      if (!r.getBoolean(6)) {
        String owner = r.getString(5);
        return "the store's tables in database " + database + " belong to role " + owner
            + ", and only it may change them: run promptd store init as " + owner
            + ", or as a superuser GRANT " + owner + " TO " + role;
      }
      return null;
    }
  }

  /**
   * What a refused connection says the role or the database lacks, with the statement that fixes
   * it; null for any other failure (a host that is away, a wrong password).
   */
  static @Nullable String refused(SQLException e, StoreUrl url) {
    String role = url.user() == null ? "the URL's user" : url.user();
    String database = database(url);
    String message = String.valueOf(e.getMessage());
    return switch (String.valueOf(e.getSQLState())) {
      case "3D000" ->
        "database " + database + " does not exist: as a superuser, CREATE DATABASE " + database
            + " OWNER " + role;
      case "42501" ->
        "role " + role + " may not connect to database " + database
            + ": as the database's owner or a superuser, GRANT CONNECT ON DATABASE " + database
            + " TO " + role;
      case "28000" ->
        message.contains("not permitted to log in")
            ? "role " + role + " may not log in: as a superuser, ALTER ROLE " + role + " LOGIN"
            : message.contains("does not exist")
                ? "role " + role + " does not exist: as a superuser, CREATE ROLE " + role
                    + " LOGIN PASSWORD '…'"
                : null;
      default -> null;
    };
  }

  /** The database the URL names: the path of its JDBC form, without the query. */
  private static String database(StoreUrl url) {
    String jdbc = url.jdbcUrl();
    int slash = jdbc.indexOf('/', "jdbc:postgresql://".length());
    if (slash < 0) {
      return "the URL's database";
    }
    int query = jdbc.indexOf('?', slash);
    return URLDecoder.decode(
        jdbc.substring(slash + 1, query < 0 ? jdbc.length() : query), StandardCharsets.UTF_8);
  }
}
