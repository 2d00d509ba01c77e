package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.library.LibraryFiles;
import io.promptd.mcp.api.Stability;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The labels of a {@link PromptStore}: named pointers from a file to one of its versions
 * ({@code staging}, {@code production}). A name given to {@link #set} or {@link #remove} means the
 * files {@link PromptStore#paths} finds for it. Every move is recorded (who, when, from which
 * version to which) and notifies the store's listeners on the channel {@code promptd_labels} with
 * the label as payload when it commits; a failed call writes nothing. The label {@value #LATEST} is
 * every file's newest version: it is never stored, set or removed.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreLabels {
  /** The implicit label: each file's newest version. */
  public static final String LATEST = "latest";

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  private final PromptStore store;

  StoreLabels(PromptStore store) {
    this.store = store;
  }

  /**
   * Checks a label's name: 1 to 64 lowercase letters, digits, {@code .}, {@code _} or {@code -},
   * starting with a letter or digit, and not {@value #LATEST}.
   *
   * @throws StoreException with {@link StoreException.Kind#REFUSED} saying why not
   */
  public static void check(String label) throws StoreException {
    requireNonNull(label, "label");
    if (label.equals(LATEST)) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "the label 'latest' always means each file's newest version; it cannot be set or removed");
    }
    if (!NAME.matcher(label).matches()) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "'" + label + "' is not a label name: 1 to 64 of a-z, 0-9, '.', '_' and '-',"
              + " starting with a letter or digit");
    }
  }

  /**
   * Points {@code label} at version {@code version} of each file {@code name} names, in one
   * transaction.
   *
   * @return the moves made (none for a file it already pointed at)
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when no file is so named or
   *     one has no such version, {@link StoreException.Kind#REFUSED} for a bad label or a version
   *     that deleted the file
   */
  public List<LabelMove> set(String name, int version, String label, String author)
      throws StoreException {
    return set(name, version, label, author, null);
  }

  /**
   * Points {@code label} at version {@code version} of each file {@code name} names, as
   * {@link #set(String, int, String, String)} does, for a caller holding {@code scopes}: a
   * {@linkplain #protect protected} label moves only when they include its scope, checked in the
   * same transaction.
   *
   * @param scopes the scopes the caller was granted, or null for a caller trusted with every label
   *     (the command line, which holds the database's credentials)
   * @throws StoreException with {@link StoreException.Kind#FORBIDDEN} when the label is protected
   *     by a scope {@code scopes} lacks, and as {@link #set(String, int, String, String)}
   */
  public List<LabelMove> set(
      String name, int version, String label, String author, @Nullable Set<String> scopes)
      throws StoreException {
    return set(name, version, label, author, scopes, null);
  }

  /**
   * Points {@code label} at version {@code version} of each file {@code name} names, as
   * {@link #set(String, int, String, String, Set)} does, where a label that is not
   * {@linkplain #protect protected} needs {@code unprotected}: what a server asks of the labels it
   * serves, which it protects by default.
   *
   * @param unprotected the scope moving the label needs when it has no protection of its own, or
   *     null when such a label moves for any caller; checked only when {@code scopes} is not null
   * @throws StoreException with {@link StoreException.Kind#FORBIDDEN} when {@code scopes} lacks the
   *     scope needed, and as {@link #set(String, int, String, String)}
   */
  public List<LabelMove> set(
      String name,
      int version,
      String label,
      String author,
      @Nullable Set<String> scopes,
      @Nullable String unprotected)
      throws StoreException {
    requireNonNull(author, "author");
    check(label);
    Set<String> paths = store.paths(name);
    return inTransaction(
        "point '" + label + "' at version " + version + " of '" + name + "'", c -> {
          long libraryVersion = LabelQueries.lockStore(c);
          requireScope(c, label, scopes, unprotected);
          List<LabelMove> moves = new ArrayList<>();
          for (String path : paths) {
            requireContent(c, name, path, version);
            LabelMove m = LabelQueries.move(c, path, label, version, author, libraryVersion);
            if (m != null) {
              moves.add(m);
            }
          }
          return moves;
        });
  }

  /**
   * Promotes a release: points {@code to} at exactly what {@code from} points at, file by file, in
   * one transaction — each file {@code from} labels gets {@code to} at the same version, and a file
   * {@code to} labels that {@code from} does not loses {@code to}. The promotion is recorded once
   * (who, when, both labels; {@link #promotions}) and its moves under one library version, and
   * servers of {@code to} hear of it once.
   *
   * @param names the prompts (their files, as {@link #set} names them) to promote, or empty for
   *     every file; a file outside them keeps {@code to} as it is
   * @param scopes the scopes of a caller over the management API, or null for the command line (as
   *     {@link #set(String, int, String, String, Set, String)})
   * @param unprotected the scope moving an unprotected {@code to} needs of such a caller, or null
   * @param dryRun work out the moves and write nothing
   * @return the promotion made, or that would be made (its id 0); no moves when {@code to} already
   *     points where {@code from} does
   * @throws StoreException with {@link StoreException.Kind#REFUSED} for a bad label, the same label
   *     twice, {@code from} being {@value #LATEST}, or an A/B split under {@code from} (a split is
   *     promoted by splitting {@code to}); {@link StoreException.Kind#NOT_FOUND} when {@code from}
   *     labels none of the files; {@link StoreException.Kind#FORBIDDEN} as {@link #set}
   */
  public Promotion promote(
      String from,
      String to,
      Collection<String> names,
      String author,
      @Nullable Set<String> scopes,
      @Nullable String unprotected,
      boolean dryRun)
      throws StoreException {
    LabelPromotion.check(from, to);
    @Nullable Set<String> only = null;
    if (!names.isEmpty()) {
      only = new TreeSet<>();
      for (String name : names) {
        only.addAll(store.paths(name));
      }
    }
    return promoteFiles(from, to, only, author, scopes, unprotected, dryRun, moves -> {});
  }

  /**
   * Promotes a release as {@link #promote} does, on the files {@code paths} (exact paths; every
   * file when null), letting {@code review} refuse its moves before anything is written.
   *
   * @param review sees the moves in the promotion's transaction; what it throws refuses the whole
   *     promotion, nothing moved
   */
  public Promotion promoteFiles(
      String from,
      String to,
      @Nullable Set<String> paths,
      String author,
      @Nullable Set<String> scopes,
      @Nullable String unprotected,
      boolean dryRun,
      Review review)
      throws StoreException {
    requireNonNull(author, "author");
    requireNonNull(review, "review");
    LabelPromotion.check(from, to);
    @Nullable Set<String> within = paths == null ? null : Set.copyOf(paths);
    Work<Promotion> work = c -> {
      long libraryVersion = LabelQueries.lockStore(c);
      requireScope(c, to, scopes, unprotected);
      Promotion p = LabelPromotion.promote(c, from, to, within, author, libraryVersion, dryRun);
      review.check(p.moves());
      return p;
    };
    return promotion("promote '" + from + "' to '" + to + "'", dryRun, work);
  }

  /** Runs a promotion's {@code work}: rolled back for a dry run, else committed and announced. */
  private Promotion promotion(String what, boolean dryRun, Work<Promotion> work)
      throws StoreException {
    return dryRun
        ? inTransactionRolledBack(what, work)
        : inTransaction(what, work, Promotion::moves);
  }

  /** A look at a promotion's moves before they are written, which may refuse them all. */
  @FunctionalInterface
  public interface Review {
    /**
     * Checks {@code moves}.
     *
     * @throws StoreException to refuse the promotion; nothing is written
     */
    void check(List<LabelMove> moves) throws StoreException;
  }

  /**
   * Reverts promotion {@code promotion} (its number, as {@link #promotions} lists it): puts every
   * label it moved back where it pointed before, in one transaction — a label it added is removed,
   * one it removed is put back. The revert is recorded as a promotion that
   * {@linkplain Promotion#reverts() names} the one it reverts, and servers hear of it once; a
   * revert is reverted the same way.
   *
   * @param scopes the scopes of a caller over the management API, or null for the command line (as
   *     {@link #set(String, int, String, String, Set, String)}); checked for the promotion's TO
   * @param unprotected the scope moving an unprotected TO needs of such a caller, or null
   * @param dryRun work out the moves and write nothing
   * @param review sees the moves before anything is checked against the labels or written; what it
   *     throws refuses the whole revert
   * @return the revert made, or that would be made (its id 0)
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when there is no such
   *     promotion, {@link StoreException.Kind#CONFLICT} naming the files when a label it moved has
   *     moved since (nothing moved), {@link StoreException.Kind#FORBIDDEN} as {@link #set}
   */
  public Promotion revert(
      long promotion,
      String author,
      @Nullable Set<String> scopes,
      @Nullable String unprotected,
      boolean dryRun,
      Review review)
      throws StoreException {
    requireNonNull(author, "author");
    requireNonNull(review, "review");
    Work<Promotion> work = c -> LabelRevert.revert(
        c, promotion, author, LabelQueries.lockStore(c), scopes, unprotected, dryRun, review);
    return promotion("revert promotion #" + promotion, dryRun, work);
  }

  /**
   * The recorded promotions, newest first, each with all its moves: those that moved a label on a
   * file {@code name} names, or every one when null.
   */
  public List<Promotion> promotions(@Nullable String name) throws StoreException {
    @Nullable Set<String> paths = name == null ? null : store.paths(name);
    try (Connection c = store.connection()) {
      return LabelPromotion.list(c, paths);
    } catch (SQLException e) {
      throw store.failed("list the promotions", e);
    }
  }

  /**
   * Makes {@code label} an A/B split of the prompt file {@code name} names: a server serving the
   * label gives each caller one of the versions in {@code shares} by weight, the same one every
   * time ({@link StoreLibrary}). The labels row points at the first version, so tools that know
   * nothing of splits see that one. Any later plain move of the label on the file ({@link #set},
   * {@link #remove}, {@code publish --label}) ends the split. The command line's trust: no scope is
   * checked (see {@link #set(String, int, String, String, Set)}).
   *
   * @param shares two or more distinct versions of the file, each with its weight, in the order
   *     given
   * @return the move made, or empty when the label was that split already
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when no file is so named or
   *     it has no such version, {@link StoreException.Kind#REFUSED} for a bad label, fewer than two
   *     or repeated versions, a name that names several files or a file that is not a prompt file,
   *     or a version that deleted the file
   */
  public List<LabelMove> split(String name, String label, List<SplitShare> shares, String author)
      throws StoreException {
    requireNonNull(author, "author");
    check(label);
    if (shares.size() < 2) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "a split needs two or more VERSION:WEIGHT (for example 7:90 8:10)");
    }
    if (shares.stream().map(SplitShare::version).distinct().count() != shares.size()) {
      throw new StoreException(
          StoreException.Kind.REFUSED, "a split names each version once: " + shares);
    }
    Set<String> paths = store.paths(name);
    if (paths.size() != 1) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "'" + name + "' names " + paths.size() + " files; a split names one prompt file");
    }
    String path = paths.iterator().next();
    if (!LibraryFiles.prompt(path)) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "'" + path + "' is not a prompt file; only prompts can be split (skills and resources"
              + " cannot)");
    }
    return inTransaction("split '" + label + "' of '" + name + "'", c -> {
      long libraryVersion = LabelQueries.lockStore(c);
      for (SplitShare share : shares) {
        requireContent(c, name, path, share.version());
      }
      LabelMove m = LabelQueries.split(c, path, label, shares, author, libraryVersion);
      return m == null ? List.of() : List.of(m);
    });
  }

  /**
   * Removes {@code label} from each file {@code name} names, in one transaction.
   *
   * @return the moves made
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when no file is so named or
   *     none of them has the label, {@link StoreException.Kind#REFUSED} for a bad label
   */
  public List<LabelMove> remove(String name, String label, String author) throws StoreException {
    requireNonNull(author, "author");
    check(label);
    Set<String> paths = store.paths(name);
    return inTransaction("remove '" + label + "' from '" + name + "'", c -> {
      long libraryVersion = LabelQueries.lockStore(c);
      List<LabelMove> moves = new ArrayList<>();
      for (String path : paths) {
        LabelMove m = LabelQueries.move(c, path, label, 0, author, libraryVersion);
        if (m != null) {
          moves.add(m);
        }
      }
      if (moves.isEmpty()) {
        throw new StoreException(
            StoreException.Kind.NOT_FOUND,
            "'" + name + "' has no label '" + label + "' (see promptd label list " + name + ")");
      }
      return moves;
    });
  }

  /**
   * The labels of the files {@code name} names, or of every file when null; by path, then label.
   */
  public List<FileLabel> list(@Nullable String name) throws StoreException {
    @Nullable Set<String> paths = name == null ? null : store.paths(name);
    try (Connection c = store.connection()) {
      return LabelQueries.list(c, paths);
    } catch (SQLException e) {
      throw store.failed("list the labels", e);
    }
  }

  /** Every recorded label move on the files {@code name} names, oldest first within each file. */
  public List<LabelMove> moves(String name) throws StoreException {
    Set<String> paths = store.paths(name);
    try (Connection c = store.connection()) {
      return LabelQueries.moves(c, paths);
    } catch (SQLException e) {
      throw store.failed("read the label moves of '" + name + "'", e);
    }
  }

  /**
   * Protects {@code label}: from now on moving it over the management API needs {@code scope};
   * protecting it again replaces the scope. The command line still moves it.
   *
   * @param scope an OAuth scope: 1 to 128 printable ASCII characters other than space, {@code "}
   *     and {@code \\}
   * @param author who protects it, recorded
   * @throws StoreException with {@link StoreException.Kind#REFUSED} for a bad label or scope
   */
  public void protect(String label, String scope, String author) throws StoreException {
    requireNonNull(author, "author");
    check(label);
    ProtectedLabels.checkScope(scope);
    try (Connection c = store.connection()) {
      ProtectedLabels.protect(c, label, scope, author);
    } catch (SQLException e) {
      throw store.failed("protect the label '" + label + "'", e);
    }
  }

  /**
   * Lifts {@code label}'s protection.
   *
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when it is not protected
   */
  public void unprotect(String label) throws StoreException {
    check(label);
    try (Connection c = store.connection()) {
      if (!ProtectedLabels.unprotect(c, label)) {
        throw new StoreException(
            StoreException.Kind.NOT_FOUND, "the label '" + label + "' is not protected");
      }
    } catch (SQLException e) {
      throw store.failed("unprotect the label '" + label + "'", e);
    }
  }

  /** The protected labels and the scope each needs, by label. */
  public SortedMap<String, String> protections() throws StoreException {
    try (Connection c = store.connection()) {
      return ProtectedLabels.all(c);
    } catch (SQLException e) {
      throw store.failed("list the protected labels", e);
    }
  }

  /**
   * Refuses a version of {@code path} that does not exist or that deleted the file: a label points
   * at content.
   */
  private static void requireContent(Connection c, String name, String path, int version)
      throws SQLException, StoreException {
    boolean[] found = new boolean[1];
    byte[] data = StoreQueries.content(c, path, version, found);
    if (!found[0]) {
      throw new StoreException(
          StoreException.Kind.NOT_FOUND,
          "'" + path + "' has no version " + version + " (see promptd history " + name
              + "); no label was moved");
    }
    if (data == null) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "version " + version + " of '" + path + "' deleted the file; a label points at a"
              + " version with content; no label was moved");
    }
  }

  /**
   * Refuses a caller holding {@code scopes} (null: the command line, trusted) the move of
   * {@code label} when it is protected by a scope they lack, or unprotected where that needs
   * {@code unprotected}.
   */
  static void requireScope(
      Connection c, String label, @Nullable Set<String> scopes, @Nullable String unprotected)
      throws SQLException, StoreException {
    if (scopes == null) {
      return;
    }
    String scope = ProtectedLabels.scope(c, label);
    if (scope != null && !scopes.contains(scope)) {
      throw new StoreException(
          StoreException.Kind.FORBIDDEN,
          "the label '" + label + "' is protected: moving it needs the scope '" + scope + "'");
    }
    if (scope == null && unprotected != null && !scopes.contains(unprotected)) {
      throw new StoreException(
          StoreException.Kind.FORBIDDEN,
          "the label '" + label + "' is served by this server and protected by default:"
              + " moving it needs the scope '" + unprotected + "' (or protect it with a"
              + " scope of its own: promptd label protect " + label + " --scope SCOPE)");
    }
  }

  /** Runs {@code work} in a transaction that is rolled back: what it would do, unwritten. */
  private <T> T inTransactionRolledBack(String what, Work<T> work) throws StoreException {
    try (Connection c = store.connection()) {
      c.setAutoCommit(false);
      try {
        return work.run(c);
      } finally {
        c.rollback();
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw store.failed(what, e);
    }
  }

  private interface Work<T> {
    T run(Connection c) throws SQLException, StoreException;
  }

  /**
   * Runs {@code work} in one transaction that notifies the label's listeners when it moved
   * anything.
   */
  private List<LabelMove> inTransaction(String what, Work<List<LabelMove>> work)
      throws StoreException {
    return inTransaction(what, work, moves -> moves);
  }

  /**
   * Runs {@code work} as {@link #inTransaction(String, Work)} does; {@code movesOf} finds its
   * moves.
   */
  private <T> T inTransaction(String what, Work<T> work, Function<T, List<LabelMove>> movesOf)
      throws StoreException {
    try (Connection c = store.connection()) {
      c.setAutoCommit(false);
      try {
        T done = work.run(c);
        List<LabelMove> moves = movesOf.apply(done);
        if (!moves.isEmpty()) {
          LabelQueries.notifyMoved(c, moves.getFirst().label());
        }
        c.commit();
        return done;
      } catch (SQLException | StoreException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw store.failed(what, e);
    }
  }
}
