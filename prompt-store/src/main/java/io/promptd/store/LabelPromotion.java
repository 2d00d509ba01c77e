package io.promptd.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The moves of {@link StoreLabels#promote}, made in the caller's transaction, and the promotion's
 * one record ({@code label_promotions}, which its moves name).
 */
final class LabelPromotion {
  private LabelPromotion() {}

  /** Refuses {@code latest} as FROM, a bad label, and a label promoted to itself. */
  static void check(String from, String to) throws StoreException {
    if (from.equals(StoreLabels.LATEST)) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "'latest' is each file's newest version, not a release to promote: point a label at it"
              + " with promptd publish --label " + to);
    }
    StoreLabels.check(from);
    StoreLabels.check(to);
    if (from.equals(to)) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "promote from a label to another, not '" + to + "' to itself");
    }
  }

  /**
   * Promotes in the caller's transaction: records the promotion (unless it is a dry run, or nothing
   * would move: a promotion that changes nothing is not one, and takes no number) and makes its
   * moves under it.
   */
  static Promotion promote(
      Connection c,
      String from,
      String to,
      @Nullable Set<String> within,
      String author,
      long libraryVersion,
      boolean dryRun)
      throws SQLException, StoreException {
    Plan plan = plan(c, from, to, within);
    Recorded recorded = plan.changes() && !dryRun
        ? record(c, from, to, libraryVersion, author, 0)
        : new Recorded(0, Instant.now());
    long id = recorded.id();
    Instant time = recorded.time();
    List<LabelMove> moves = new ArrayList<>();
    for (Map.Entry<String, Integer> e : plan.source().entrySet()) {
      LabelMove m = LabelQueries.move(c, e.getKey(), to, e.getValue(), author, libraryVersion, id);
      if (m != null) {
        moves.add(m);
      }
    }
    for (String path : plan.removed()) {
      LabelMove m = LabelQueries.move(c, path, to, 0, author, libraryVersion, id);
      if (m != null) {
        moves.add(m);
      }
    }
    if (!moves.isEmpty()) {
      time = moves.getFirst().time();
    }
    return new Promotion(id, from, to, libraryVersion, author, time, moves);
  }

  /** A promotion's number and time, once recorded. */
  record Recorded(long id, Instant time) {}

  /** Records a promotion ({@code reverts}: the one it reverts, or 0). */
  static Recorded record(
      Connection c, String from, String to, long libraryVersion, String author, long reverts)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO label_promotions (from_label,"
        + " to_label, library_version, author, reverts) VALUES (?, ?, ?, ?, ?)"
        + " RETURNING id, promoted_at")) {
      s.setString(1, from);
      s.setString(2, to);
      s.setLong(3, libraryVersion);
      s.setString(4, author);
      if (reverts == 0) {
        s.setNull(5, Types.BIGINT);
      } else {
        s.setLong(5, reverts);
      }
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return new Recorded(r.getLong(1), r.getTimestamp(2).toInstant());
      }
    }
  }

  /**
   * The recorded promotions that moved a label on one of {@code paths} (every promotion when null),
   * newest first, each with all its moves (on every file, not only {@code paths}).
   */
  static List<Promotion> list(Connection c, @Nullable Collection<String> paths)
      throws SQLException {
    String where = paths == null
        ? ""
        : " WHERE p.id IN (SELECT promotion FROM label_moves WHERE path = ANY (?))";
    Map<Long, List<LabelMove>> moves = new LinkedHashMap<>();
    List<Promotion> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT m.promotion, m.path, m.label,"
        + " m.from_version, m.to_version, m.library_version, m.author, m.moved_at FROM label_moves m"
        + " JOIN label_promotions p ON p.id = m.promotion" + where
        + " ORDER BY m.promotion, m.path")) {
      if (paths != null) {
        s.setArray(1, c.createArrayOf("text", paths.toArray()));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          long id = r.getLong(1);
          moves
              .computeIfAbsent(id, k -> new ArrayList<>())
              .add(new LabelMove(
                  r.getString(2),
                  r.getString(3),
                  r.getInt(4),
                  r.getInt(5),
                  r.getLong(6),
                  r.getString(7),
                  r.getTimestamp(8).toInstant(),
                  null,
                  id));
        }
      }
    }
    try (PreparedStatement s = c.prepareStatement("SELECT p.id, p.from_label, p.to_label,"
        + " p.library_version, p.author, p.promoted_at, p.reverts FROM label_promotions p" + where
        + " ORDER BY p.id DESC")) {
      if (paths != null) {
        s.setArray(1, c.createArrayOf("text", paths.toArray()));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          long id = r.getLong(1);
          out.add(new Promotion(
              id,
              r.getString(2),
              r.getString(3),
              r.getLong(4),
              r.getString(5),
              r.getTimestamp(6).toInstant(),
              moves.getOrDefault(id, List.of()),
              r.getLong(7)));
        }
      }
    }
    return out;
  }

  /**
   * What a promotion moves: {@code to} to {@code from}'s version on each file {@code from} labels
   * (of {@code within}, or every file when null), {@code to} off the files {@code from} does not
   * label, and whether any of it changes something.
   */
  private record Plan(Map<String, Integer> source, Set<String> removed, boolean changes) {}

  private static Plan plan(Connection c, String from, String to, @Nullable Set<String> within)
      throws SQLException, StoreException {
    Map<String, Integer> source = new TreeMap<>();
    Map<String, FileLabel> target = new TreeMap<>();
    for (FileLabel l : LabelQueries.list(c, within)) {
      if (l.label().equals(from)) {
        if (!l.split().isEmpty()) {
          throw new StoreException(
              StoreException.Kind.REFUSED,
              "'" + from + "' is an A/B split on " + l.path() + ": promote the other files"
                  + " (--only), and split '" + to + "' with promptd label split");
        }
        source.put(l.path(), l.version());
      } else if (l.label().equals(to)) {
        target.put(l.path(), l);
      }
    }
    if (source.isEmpty()) {
      throw new StoreException(
          StoreException.Kind.NOT_FOUND,
          "the label '" + from + "' points at no file"
              + (within == null ? "" : " of those named")
              + " (see promptd label list)");
    }
    Set<String> removed = new TreeSet<>(target.keySet());
    removed.removeAll(source.keySet());
    boolean changes = !removed.isEmpty();
    for (Map.Entry<String, Integer> e : source.entrySet()) {
      FileLabel now = target.get(e.getKey());
      changes |= now == null || now.version() != e.getValue() || !now.split().isEmpty();
    }
    return new Plan(source, removed, changes);
  }
}
