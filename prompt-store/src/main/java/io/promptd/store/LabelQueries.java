package io.promptd.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The label tables' statements ({@code labels}, {@code label_moves}): one place that knows them.
 */
final class LabelQueries {
  /** The channel a label move notifies when its transaction commits, with the label as payload. */
  static final String CHANNEL = "promptd_labels";

  private LabelQueries() {}

  /**
   * Locks the store's row for the rest of the transaction and returns its library version: every
   * transaction that moves labels takes this lock first, as a publish does, so that they never wait
   * for each other in opposite orders.
   */
  static long lockStore(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT library_version FROM store FOR UPDATE");
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        throw new SQLException("the store table has no row; was the schema changed by hand?");
      }
      return r.getLong(1);
    }
  }

  /**
   * Points {@code label} at {@code to} on {@code path}, or removes it from the file when {@code to}
   * is 0, and records the move; nothing when it already points there (or is already absent) without
   * a split. A split the label had on the file ends.
   *
   * @return the move made, or null when nothing moved
   */
  static @Nullable LabelMove move(
      Connection c, String path, String label, int to, String author, long libraryVersion)
      throws SQLException {
    return move(c, path, label, to, author, libraryVersion, 0);
  }

  /**
   * Moves the label as {@link #move(Connection, String, String, int, String, long)} does, as part
   * of the promotion {@code promotion} (0: none).
   */
  static @Nullable LabelMove move(
      Connection c,
      String path,
      String label,
      int to,
      String author,
      long libraryVersion,
      long promotion)
      throws SQLException {
    int from = pointed(c, path, label);
    List<SplitShare> split = split(c, path, label);
    if (from == to && split.isEmpty()) {
      return null;
    }
    point(c, path, label, to);
    return record(c, path, label, from, to, null, author, libraryVersion, promotion);
  }

  /**
   * Makes {@code label} on {@code path} the A/B split {@code shares} (the labels row points at the
   * first), and records the move; nothing when it is that split already.
   *
   * @return the move made, or null when nothing moved
   */
  static @Nullable LabelMove split(
      Connection c,
      String path,
      String label,
      List<SplitShare> shares,
      String author,
      long libraryVersion)
      throws SQLException {
    int from = pointed(c, path, label);
    if (split(c, path, label).equals(shares)) {
      return null;
    }
    int to = shares.getFirst().version();
    point(c, path, label, to);
    try (PreparedStatement s = c.prepareStatement("INSERT INTO label_splits (path, label, position,"
        + " version, weight) VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < shares.size(); i++) {
        s.setString(1, path);
        s.setString(2, label);
        s.setInt(3, i);
        s.setInt(4, shares.get(i).version());
        s.setInt(5, shares.get(i).weight());
        s.addBatch();
      }
      s.executeBatch();
    }
    String given = SplitShare.text(shares);
    return record(c, path, label, from, to, given, author, libraryVersion, 0);
  }

  /**
   * The version {@code label} points at on {@code path} (its row locked), or 0 when the file lacks
   * it.
   */
  private static int pointed(Connection c, String path, String label) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT version FROM labels WHERE path = ? AND label = ? FOR UPDATE")) {
      s.setString(1, path);
      s.setString(2, label);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getInt(1) : 0;
      }
    }
  }

  /** The split of {@code label} on {@code path}, in order; empty when it has none. */
  private static List<SplitShare> split(Connection c, String path, String label)
      throws SQLException {
    List<SplitShare> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT version, weight FROM label_splits"
        + " WHERE path = ? AND label = ? ORDER BY position")) {
      s.setString(1, path);
      s.setString(2, label);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(new SplitShare(r.getInt(1), r.getInt(2)));
        }
      }
    }
    return out;
  }

  /** Points the labels row at {@code to} (0: removes it), and ends the split it had. */
  private static void point(Connection c, String path, String label, int to) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("DELETE FROM label_splits WHERE path = ? AND label = ?")) {
      s.setString(1, path);
      s.setString(2, label);
      s.executeUpdate();
    }
    try (PreparedStatement s = c.prepareStatement(
        to == 0
            ? "DELETE FROM labels WHERE path = ? AND label = ?"
            : "INSERT INTO labels (path, label, version) VALUES (?, ?, ?)"
                + " ON CONFLICT (path, label) DO UPDATE SET version = EXCLUDED.version")) {
      s.setString(1, path);
      s.setString(2, label);
      if (to != 0) {
        s.setInt(3, to);
      }
      s.executeUpdate();
    }
  }

  private static LabelMove record(
      Connection c,
      String path,
      String label,
      int from,
      int to,
      @Nullable String split,
      String author,
      long libraryVersion,
      long promotion)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO label_moves (path, label,"
        + " from_version, to_version, library_version, author, split, promotion)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING moved_at")) {
      s.setString(1, path);
      s.setString(2, label);
      s.setObject(3, from == 0 ? null : from, Types.INTEGER);
      s.setObject(4, to == 0 ? null : to, Types.INTEGER);
      s.setLong(5, libraryVersion);
      s.setString(6, author);
      s.setString(7, split);
      s.setObject(8, promotion == 0 ? null : promotion, Types.BIGINT);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        Instant time = r.getTimestamp(1).toInstant();
        return new LabelMove(path, label, from, to, libraryVersion, author, time, split, promotion);
      }
    }
  }

  /**
   * Points {@code label} at each file's newest version as of {@code current} (each file's newest
   * row), and removes it from the files whose newest row deleted them: what {@code publish --label}
   * does after it wrote.
   */
  static List<LabelMove> pointAll(
      Connection c,
      String label,
      Map<String, StoreQueries.Current> current,
      String author,
      long libraryVersion)
      throws SQLException {
    List<LabelMove> moves = new ArrayList<>();
    for (Map.Entry<String, StoreQueries.Current> e : current.entrySet()) {
      boolean deleted = e.getValue().sha256() == null;
      LabelMove m =
          move(c, e.getKey(), label, deleted ? 0 : e.getValue().version(), author, libraryVersion);
      if (m != null) {
        moves.add(m);
      }
    }
    return moves;
  }

  /**
   * Counts a transaction that moved {@code label} ({@code store.labels_version}) and tells every
   * listener on {@link #CHANNEL} when it commits.
   */
  static void notifyMoved(Connection c, String label) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("UPDATE store SET labels_version = labels_version + 1")) {
      s.executeUpdate();
    }
    try (PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      s.setString(1, CHANNEL);
      s.setString(2, label);
      s.execute();
    }
  }

  /** The labels of {@code paths} (of every file when null), by path and label. */
  static List<FileLabel> list(Connection c, @Nullable Collection<String> paths)
      throws SQLException {
    String where = paths == null ? "" : " WHERE path = ANY (?)";
    Map<List<String>, List<SplitShare>> splits = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT path, label, version, weight FROM"
        + " label_splits" + where + " ORDER BY path, label, position")) {
      if (paths != null) {
        s.setArray(1, c.createArrayOf("text", paths.toArray()));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          splits
              .computeIfAbsent(List.of(r.getString(1), r.getString(2)), k -> new ArrayList<>())
              .add(new SplitShare(r.getInt(3), r.getInt(4)));
        }
      }
    }
    List<FileLabel> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT path, label, version FROM labels" + where + " ORDER BY path, label")) {
      if (paths != null) {
        s.setArray(1, c.createArrayOf("text", paths.toArray()));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String path = r.getString(1);
          String label = r.getString(2);
          out.add(new FileLabel(
              path, label, r.getInt(3), splits.getOrDefault(List.of(path, label), List.of())));
        }
      }
    }
    return out;
  }

  /**
   * Every recorded move of a label on {@code paths}, oldest first within each path, paths sorted.
   */
  static List<LabelMove> moves(Connection c, Collection<String> paths) throws SQLException {
    List<LabelMove> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT path, label, from_version, to_version,"
        + " library_version, author, moved_at, split, promotion FROM label_moves"
        + " WHERE path = ANY (?) ORDER BY path, id")) {
      s.setArray(1, c.createArrayOf("text", paths.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          Instant time = r.getTimestamp(7).toInstant();
          out.add(new LabelMove(
              r.getString(1),
              r.getString(2),
              r.getInt(3),
              r.getInt(4),
              r.getLong(5),
              r.getString(6),
              time,
              r.getString(8),
              r.getLong(9)));
        }
      }
    }
    return out;
  }
}
