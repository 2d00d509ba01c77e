package io.promptd.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** The moves of {@link StoreLabels#promote}, made in the caller's transaction. */
final class LabelPromotion {
  private LabelPromotion() {}

  /**
   * Points {@code to} at what {@code from} points at on each file (of {@code within}, or every file
   * when null), and takes {@code to} off the files {@code from} does not label.
   *
   * @return the moves made
   */
  static List<LabelMove> moves(
      Connection c,
      String from,
      String to,
      @Nullable Set<String> within,
      String author,
      long libraryVersion)
      throws SQLException, StoreException {
    Map<String, Integer> source = new TreeMap<>();
    Set<String> target = new TreeSet<>();
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
        target.add(l.path());
      }
    }
    if (source.isEmpty()) {
      throw new StoreException(
          StoreException.Kind.NOT_FOUND,
          "the label '" + from + "' points at no file"
              + (within == null ? "" : " of those named")
              + " (see promptd label list)");
    }
    List<LabelMove> moves = new ArrayList<>();
    for (Map.Entry<String, Integer> e : source.entrySet()) {
      LabelMove m = LabelQueries.move(c, e.getKey(), to, e.getValue(), author, libraryVersion);
      if (m != null) {
        moves.add(m);
      }
    }
    target.removeAll(source.keySet());
    for (String path : target) {
      LabelMove m = LabelQueries.move(c, path, to, 0, author, libraryVersion);
      if (m != null) {
        moves.add(m);
      }
    }
    return moves;
  }
}
