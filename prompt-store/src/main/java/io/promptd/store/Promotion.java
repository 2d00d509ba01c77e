package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Instant;
import java.util.List;

/**
 * One promotion of a release ({@link StoreLabels#promote}): {@code to} pointed at what {@code from}
 * pointed at, on each file of {@code moves}, in one transaction, recorded once. A
 * {@linkplain StoreLabels#revert revert} is a promotion too: it put back what the promotion
 * {@code reverts} moved.
 *
 * @param id its number in the store, from 1; 0 for a dry run or a promotion that moved nothing,
 *     neither of which is recorded
 * @param from the label promoted
 * @param to the label moved
 * @param libraryVersion the store's library version when it was made
 * @param author who promoted (the operating-system user, or {@code api:SUBJECT})
 * @param time when
 * @param moves each file's move, by path: a file {@code from} labels and {@code to} did not
 *     (added), one where {@code to} pointed at another version (changed), one {@code to} labelled
 *     that {@code from} does not (removed)
 * @param reverts the promotion this one reverts (its {@code from} and {@code to} are that one's),
 *     or 0 for a promotion of {@code from}
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record Promotion(
    long id,
    String from,
    String to,
    long libraryVersion,
    String author,
    Instant time,
    List<LabelMove> moves,
    long reverts) {
  /** Checks the fields. */
  public Promotion {
    requireNonNull(from, "from");
    requireNonNull(to, "to");
    requireNonNull(author, "author");
    requireNonNull(time, "time");
    moves = List.copyOf(moves);
  }

  /** A promotion of {@code from}, not a revert. */
  public Promotion(
      long id,
      String from,
      String to,
      long libraryVersion,
      String author,
      Instant time,
      List<LabelMove> moves) {
    this(id, from, to, libraryVersion, author, time, moves, 0);
  }

  /** What a move of a promotion did to its file: {@code to} added, changed or removed. */
  public enum Change {
    /** The file had no {@code to}; now it has. */
    ADDED,
    /** {@code to} pointed at another version of the file. */
    CHANGED,
    /** The file had {@code to} and {@code from} does not label it: {@code to} is gone. */
    REMOVED;

    /** What {@code move} did. */
    public static Change of(LabelMove move) {
      return move.from() == 0 ? ADDED : move.to() == 0 ? REMOVED : CHANGED;
    }
  }
}
