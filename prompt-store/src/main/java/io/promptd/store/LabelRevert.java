package io.promptd.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The moves of {@link StoreLabels#revert}, made in the caller's transaction: each move of one
 * recorded promotion undone, recorded as a promotion that names it.
 */
final class LabelRevert {
  private LabelRevert() {}

  /** The promotion reverted: its labels and moves, as recorded. */
  private record Original(String from, String to, List<LabelMove> moves) {}

  /**
   * Reverts promotion {@code id} in the caller's transaction: checks the caller's scope for its TO
   * label, lets {@code review} see the moves, refuses the whole revert when a label it moved points
   * elsewhere now, records the revert (unless {@code dryRun}) and moves each label back.
   */
  static Promotion revert(
      Connection c,
      long id,
      String author,
      long libraryVersion,
      @Nullable Set<String> scopes,
      @Nullable String unprotected,
      boolean dryRun,
      StoreLabels.Review review)
      throws SQLException, StoreException {
    Original original = original(c, id);
    StoreLabels.requireScope(c, original.to(), scopes, unprotected);
    Instant now = Instant.now();
    List<LabelMove> planned = new ArrayList<>();
    for (LabelMove m : original.moves()) {
      planned.add(
          new LabelMove(m.path(), m.label(), m.to(), m.from(), libraryVersion, author, now));
    }
    review.check(planned);
    requireUnmoved(c, id, original.moves());
    LabelPromotion.Recorded recorded = dryRun
        ? new LabelPromotion.Recorded(0, now)
        : LabelPromotion.record(c, original.from(), original.to(), libraryVersion, author, id);
    List<LabelMove> moves = new ArrayList<>();
    for (LabelMove m : planned) {
      LabelMove made =
          LabelQueries.move(c, m.path(), m.label(), m.to(), author, libraryVersion, recorded.id());
      if (made != null) {
        moves.add(made);
      }
    }
    Instant time = moves.isEmpty() ? recorded.time() : moves.getFirst().time();
    return new Promotion(
        recorded.id(), original.from(), original.to(), libraryVersion, author, time, moves, id);
  }

  private static Original original(Connection c, long id) throws SQLException, StoreException {
    String from;
    String to;
    try (PreparedStatement s =
        c.prepareStatement("SELECT from_label, to_label FROM label_promotions WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new StoreException(
              StoreException.Kind.NOT_FOUND,
              "there is no promotion #" + id + " (see promptd history --store)");
        }
        from = r.getString(1);
        to = r.getString(2);
      }
    }
    List<LabelMove> moves = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT path, label, from_version, to_version,"
            + " library_version, author, moved_at FROM label_moves WHERE promotion = ? ORDER BY path")) {
      s.setLong(1, id);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          moves.add(new LabelMove(
              r.getString(1),
              r.getString(2),
              r.getInt(3),
              r.getInt(4),
              r.getLong(5),
              r.getString(6),
              r.getTimestamp(7).toInstant(),
              null,
              id));
        }
      }
    }
    return new Original(from, to, moves);
  }

  /**
   * Refuses the revert when a label the promotion moved no longer points where it left it (moved,
   * removed, put back or split since): undoing it would undo someone else's move too.
   */
  private static void requireUnmoved(Connection c, long id, List<LabelMove> moves)
      throws SQLException, StoreException {
    Set<String> paths = new TreeSet<>();
    moves.forEach(m -> paths.add(m.path()));
    Map<List<String>, FileLabel> now = new HashMap<>();
    for (FileLabel l : LabelQueries.list(c, paths)) {
      now.put(List.of(l.path(), l.label()), l);
    }
    Set<String> moved = new TreeSet<>();
    String label = "";
    for (LabelMove m : moves) {
      FileLabel l = now.get(List.of(m.path(), m.label()));
      boolean same =
          l == null ? m.to() == 0 : l.version() == m.to() && l.split().isEmpty();
      if (!same) {
        moved.add(m.path());
        label = m.label();
      }
    }
    if (!moved.isEmpty()) {
      throw new StoreException(
          StoreException.Kind.CONFLICT,
          "cannot revert promotion #" + id + ": '" + label + "' moved since on "
              + String.join(", ", moved) + " (see promptd history --store); no label was moved");
    }
  }
}
