package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.library.LibraryFiles;
import io.promptd.mcp.api.Stability;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The prompt store in PostgreSQL: publish a library's files as one transaction, read a file's
 * history, roll a file back. Opening it applies the schema migrations (Flyway; safe when several
 * processes start at once). Concurrent publishes never lose an update: each reads the library
 * version it is based on and its commit is conditional on that version being still current, else it
 * fails with {@link StoreException.Kind#CONFLICT} and writes nothing.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class PromptStore implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");

  private final StoreUrl url;
  private final StoreDatabase database;
  /** For tests: runs after a publish read the version it is based on, before it writes. */
  @Nullable
  Runnable afterRead;

  private PromptStore(StoreDatabase database) {
    this.url = database.url();
    this.database = database;
  }

  /**
   * Connects (a {@link StoreDatabase} of its own, closed with it) and brings the schema up to date.
   *
   * @throws StoreException when the database cannot be reached or migrated
   */
  public static PromptStore open(StoreUrl url) throws StoreException {
    requireNonNull(url, "url");
    StoreDatabase database = StoreDatabase.open(url);
    try {
      database.migrate();
    } catch (StoreException | RuntimeException e) {
      database.close();
      throw e;
    }
    return new PromptStore(database);
  }

  /**
   * The store-wide version: 0 before the first publish, one more with each publish that changed
   * anything.
   */
  public long libraryVersion() throws StoreException {
    try (Connection c = connection()) {
      return StoreQueries.libraryVersion(c);
    } catch (SQLException e) {
      throw failed("read the library version", e);
    }
  }

  /** The files the store holds now, by path. */
  public LibraryFiles snapshot() throws StoreException {
    try (Connection c = connection()) {
      StoreQueries.Changes all = StoreQueries.changesSince(c, 0);
      Map<String, byte[]> files = new TreeMap<>();
      all.files().forEach((path, data) -> {
        if (data != null) {
          files.put(path, data);
        }
      });
      return new LibraryFiles(all.version(), files);
    } catch (SQLException e) {
      throw failed("read the files", e);
    }
  }

  /**
   * Makes the store hold exactly {@code files}: adds the new ones, a new version of each changed
   * one and a deletion marker for each one it holds that {@code files} lacks, in one transaction;
   * nothing when it holds them already.
   *
   * @param files path (relative, {@code /} separators) to bytes
   * @param author who publishes, recorded with each version
   * @throws StoreException with {@link StoreException.Kind#CONFLICT} when another publish committed
   *     meanwhile
   */
  public Published publish(Map<String, byte[]> files, String author) throws StoreException {
    return publish(files, author, null);
  }

  /**
   * Publishes as {@link #publish(Map, String)} does and, in the same transaction, points
   * {@code label} at the newest version of every file the store holds after it (the files it wrote
   * and those it left as they were) and removes it from the files it holds no more: the label then
   * serves exactly this publish. It moves the label even when nothing else changed; a publish that
   * fails moves nothing.
   *
   * @param label a label's name (see {@link StoreLabels#check}), or null to move none
   * @throws StoreException with {@link StoreException.Kind#REFUSED} for a bad label,
   *     {@link StoreException.Kind#CONFLICT} when another publish committed meanwhile
   */
  public Published publish(Map<String, byte[]> files, String author, @Nullable String label)
      throws StoreException {
    requireNonNull(files, "files");
    requireNonNull(author, "author");
    if (label != null) {
      StoreLabels.check(label);
    }
    new LibraryFiles(0, files); // checks the paths
    return write(author, current -> Diff.replacing(files, current), label);
  }

  /** The store's labels. */
  public StoreLabels labels() {
    return new StoreLabels(this);
  }

  /**
   * What {@link #publish} would do with {@code files} now, without writing anything (another
   * publish may still come first).
   *
   * @param files path (relative, {@code /} separators) to bytes
   */
  public Preview preview(Map<String, byte[]> files) throws StoreException {
    requireNonNull(files, "files");
    new LibraryFiles(0, files); // checks the paths
    try (Connection c = connection()) {
      long now = StoreQueries.libraryVersion(c);
      Map<String, StoreQueries.Current> current = StoreQueries.current(c, now);
      Diff d = Diff.of(current, Diff.replacing(files, current));
      return new Preview(
          d.changes().isEmpty() ? now : now + 1, d.added(), d.changed(), d.deleted(), d.files());
    } catch (SQLException e) {
      throw failed("read the files", e);
    }
  }

  /**
   * Publishes the content of version {@code version} of each of {@code paths} as their newest
   * version; history is kept. A deletion marker's version deletes the file again.
   *
   * @throws StoreException with {@link StoreException.Kind#REFUSED} when a path has no such version
   */
  public Published rollback(Set<String> paths, int version, String author) throws StoreException {
    requireNonNull(paths, "paths");
    requireNonNull(author, "author");
    Map<String, byte @Nullable []> target = new TreeMap<>();
    try (Connection c = connection()) {
      for (String path : paths) {
        boolean[] found = new boolean[1];
        byte[] data = StoreQueries.content(c, path, version, found);
        if (!found[0]) {
          throw new StoreException(
              StoreException.Kind.NOT_FOUND,
              "'" + path + "' has no version " + version + " (see promptd history)");
        }
        target.put(path, data);
      }
    } catch (SQLException e) {
      throw failed("read version " + version, e);
    }
    return write(author, current -> target, null);
  }

  /**
   * The content of version {@code version} of the file at {@code path}.
   *
   * @return its bytes, or null when that version deleted the file
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when the file has no such
   *     version
   */
  public byte @Nullable [] content(String path, int version) throws StoreException {
    requireNonNull(path, "path");
    try (Connection c = connection()) {
      boolean[] found = new boolean[1];
      byte[] data = StoreQueries.content(c, path, version, found);
      if (!found[0]) {
        throw new StoreException(
            StoreException.Kind.NOT_FOUND, "'" + path + "' has no version " + version);
      }
      return data;
    } catch (SQLException e) {
      throw failed("read version " + version + " of '" + path + "'", e);
    }
  }

  /** Every version of every file the store holds or held, by path, newest first per file. */
  public List<FileVersion> history() throws StoreException {
    try (Connection c = connection()) {
      return StoreQueries.history(c, StoreQueries.latestOfAll(c).keySet());
    } catch (SQLException e) {
      throw failed("read the history", e);
    }
  }

  /** Every version of every file {@code name} names (see {@link #paths}), newest first per file. */
  public List<FileVersion> history(String name) throws StoreException {
    Set<String> paths = paths(name);
    try (Connection c = connection()) {
      return StoreQueries.history(c, paths);
    } catch (SQLException e) {
      throw failed("read the history of '" + name + "'", e);
    }
  }

  /**
   * The paths of the files {@code name} names, present or deleted: the path itself, a prompt file
   * whose name comes from its path ({@code NAME.prompt.md} at any depth,
   * {@code .claude/commands/NAME.md}), one whose front matter says {@code name: NAME}, or, when
   * {@code NAME} is a skill's folder (it holds a {@code SKILL.md}), every file under it.
   *
   * @throws StoreException with {@link StoreException.Kind#NOT_FOUND} when none is found
   */
  public Set<String> paths(String name) throws StoreException {
    requireNonNull(name, "name");
    Map<String, byte @Nullable []> all;
    try (Connection c = connection()) {
      all = StoreQueries.latestOfAll(c);
    } catch (SQLException e) {
      throw failed("list the files", e);
    }
    Set<String> out = new TreeSet<>();
    // A skill by its folder's path: every file under it.
    String folder = name.endsWith("/") ? name : name + "/";
    boolean skill = all.containsKey(folder + "SKILL.md");
    all.forEach((path, data) -> {
      if (Names.names(path, data, name) || (skill && path.startsWith(folder))) {
        out.add(path);
      }
    });
    if (out.isEmpty()) {
      throw new StoreException(
          StoreException.Kind.NOT_FOUND, "no file in the store is or names '" + name + "'");
    }
    return out;
  }

  /**
   * What a publish writes, given each file's newest row: path to bytes, or to null for a deletion.
   */
  private interface Plan {
    Map<String, byte @Nullable []> changes(Map<String, StoreQueries.Current> current);
  }

  private Published write(String author, Plan plan, @Nullable String label) throws StoreException {
    try (Connection c = connection()) {
      c.setAutoCommit(false);
      try {
        Published p = write(c, author, plan, label);
        c.commit();
        return p;
      } catch (SQLException | StoreException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw failed("publish", e);
    }
  }

  private Published write(Connection c, String author, Plan plan, @Nullable String label)
      throws SQLException, StoreException {
    long basedOn = StoreQueries.libraryVersion(c);
    Map<String, StoreQueries.Current> current = StoreQueries.current(c, basedOn);
    Diff diff = Diff.of(current, plan.changes(current));
    Map<String, byte @Nullable []> changes = diff.changes();
    if (changes.isEmpty()) {
      if (label != null) {
        // Nothing to write but the label: lock the version read, so that a publish committing
        // meanwhile makes this one conflict instead of labelling files it did not see.
        lock(c, basedOn);
        moveLabel(c, label, current, author, basedOn);
      }
      return diff.published(basedOn);
    }
    Runnable hook = afterRead;
    if (hook != null) {
      hook.run();
    }
    long next;
    try (PreparedStatement s =
        c.prepareStatement("UPDATE store SET library_version = library_version + 1"
            + " WHERE library_version = ? RETURNING library_version")) {
      s.setLong(1, basedOn);
      try (var r = s.executeQuery()) {
        if (!r.next()) {
          throw conflict(basedOn);
        }
        next = r.getLong(1);
      }
    }
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO publishes (library_version, based_on, author,"
            + " files_changed) VALUES (?, ?, ?, ?)")) {
      s.setLong(1, next);
      s.setLong(2, basedOn);
      s.setString(3, author);
      s.setInt(4, changes.size());
      s.executeUpdate();
    }
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO file_versions (path, version, library_version,"
            + " deleted, content, sha256, author) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (Map.Entry<String, byte @Nullable []> e : changes.entrySet()) {
        StoreQueries.Current now = current.get(e.getKey());
        s.setString(1, e.getKey());
        s.setInt(2, now == null ? 1 : now.version() + 1);
        s.setLong(3, next);
        s.setBoolean(4, e.getValue() == null);
        s.setBytes(5, e.getValue());
        s.setString(6, diff.hashes().get(e.getKey()));
        s.setString(7, author);
        s.addBatch();
      }
      s.executeBatch();
    }
    if (label != null) {
      moveLabel(c, label, StoreQueries.current(c, next), author, next);
    }
    // Delivered to every listener when, and only when, this transaction commits.
    try (PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      s.setString(1, StoreQueries.CHANNEL);
      s.setString(2, Long.toString(next));
      s.execute();
    }
    LOG.log(System.Logger.Level.DEBUG, () -> "published library version " + next + " to " + url);
    return diff.published(next);
  }

  private static void moveLabel(
      Connection c,
      String label,
      Map<String, StoreQueries.Current> current,
      String author,
      long libraryVersion)
      throws SQLException {
    if (!LabelQueries.pointAll(c, label, current, author, libraryVersion).isEmpty()) {
      LabelQueries.notifyMoved(c, label);
    }
  }

  private void lock(Connection c, long basedOn) throws SQLException, StoreException {
    if (LabelQueries.lockStore(c) != basedOn) {
      throw conflict(basedOn);
    }
  }

  private StoreException conflict(long basedOn) {
    return new StoreException(
        StoreException.Kind.CONFLICT,
        "another publish changed the store after this one read library version " + basedOn
            + "; nothing was published: run it again");
  }

  /**
   * A pooled connection, waited for as long as a command-line publish may wait (it has nothing else
   * to do).
   */
  Connection connection() throws SQLException {
    return database.connection(StoreDatabase.LONG_WAIT_MILLIS);
  }

  StoreException failed(String what, SQLException e) {
    return StoreException.failed(
        what, "cannot " + what + " in the store " + url + ": " + StoreException.reason(e));
  }

  /** Where the store is, without the password. */
  public StoreUrl url() {
    return url;
  }

  /** Closes its database. */
  @Override
  public void close() {
    database.close();
  }
}
