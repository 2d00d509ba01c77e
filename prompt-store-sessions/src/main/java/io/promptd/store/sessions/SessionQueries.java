package io.promptd.store.sessions;

import io.promptd.mcp.http.SessionStore.Entry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The SQL of the session table (migration V2): one short statement per operation. */
final class SessionQueries {
  /** The channel on which a changed or ended session's key is announced. */
  static final String CHANNEL = "promptd_sessions";

  private SessionQueries() {}

  static Optional<Entry> get(Connection c, String key) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT state, last_active, ended FROM sessions WHERE key = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        return r.next()
            ? Optional.of(new Entry(
                r.getString(1), r.getObject(2, OffsetDateTime.class).toInstant(), r.getBoolean(3)))
            : Optional.empty();
      }
    }
  }

  static boolean create(Connection c, String key, Entry e) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO sessions (key, state, last_active, ended)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING")) {
      s.setString(1, key);
      s.setString(2, e.state());
      s.setObject(3, time(e.lastActive()));
      s.setBoolean(4, e.ended());
      return s.executeUpdate() == 1;
    }
  }

  /**
   * A new state (announced) and last use, or with a null state only the last use (not announced).
   */
  static boolean update(Connection c, String key, @Nullable String state, Instant lastActive)
      throws SQLException {
    if (state == null) {
      try (PreparedStatement s =
          c.prepareStatement("UPDATE sessions SET last_active = greatest(last_active, ?)"
              + " WHERE key = ? AND NOT ended")) {
        s.setObject(1, time(lastActive));
        s.setString(2, key);
        return s.executeUpdate() == 1;
      }
    }
    // pg_notify in the same statement: the NOTIFY is sent when, and only when, the update commits.
    try (PreparedStatement s = c.prepareStatement("WITH u AS (UPDATE sessions SET state = ?,"
        + " last_active = greatest(last_active, ?) WHERE key = ? AND NOT ended RETURNING key)"
        + " SELECT pg_notify('" + CHANNEL + "', key) FROM u")) {
      s.setString(1, state);
      s.setObject(2, time(lastActive));
      s.setString(3, key);
      return rows(s) == 1;
    }
  }

  static boolean end(Connection c, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("WITH u AS (UPDATE sessions SET ended = true"
        + " WHERE key = ? AND NOT ended RETURNING key) SELECT pg_notify('" + CHANNEL
        + "', key) FROM u")) {
      s.setString(1, key);
      return rows(s) == 1;
    }
  }

  static int expire(Connection c, Instant cutoff) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("DELETE FROM sessions WHERE last_active < ?")) {
      s.setObject(1, time(cutoff));
      return s.executeUpdate();
    }
  }

  /**
   * Writes what a replica recorded while the database was away: creates the entry, or merges into
   * the one there (an end is kept; the state is replaced unless this is only an end; the later last
   * use wins), and announces it.
   */
  static void merge(Connection c, String key, Entry e) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("WITH u AS (INSERT INTO sessions AS s (key, state, last_active,"
            + " ended) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET"
            + " state = CASE WHEN s.ended OR EXCLUDED.ended THEN s.state ELSE EXCLUDED.state END,"
            + " last_active = greatest(s.last_active, EXCLUDED.last_active), ended = s.ended OR EXCLUDED.ended"
            + " RETURNING key) SELECT pg_notify('" + CHANNEL + "', key) FROM u")) {
      s.setString(1, key);
      s.setString(2, e.state());
      s.setObject(3, time(e.lastActive()));
      s.setBoolean(4, e.ended());
      rows(s);
    }
  }

  /** The shared secret: created once by whoever comes first, then read by everyone. */
  static byte[] secret(Connection c, byte[] candidate) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO session_secret (id, secret) VALUES (true, ?)"
            + " ON CONFLICT (id) DO NOTHING")) {
      s.setBytes(1, candidate);
      s.executeUpdate();
    }
    try (PreparedStatement s = c.prepareStatement("SELECT secret FROM session_secret WHERE id");
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        throw new SQLException("the session secret row is missing");
      }
      return r.getBytes(1);
    }
  }

  private static int rows(PreparedStatement s) throws SQLException {
    int n = 0;
    try (ResultSet r = s.executeQuery()) {
      while (r.next()) {
        n++;
      }
    }
    return n;
  }

  private static OffsetDateTime time(Instant t) {
    return OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
  }
}
