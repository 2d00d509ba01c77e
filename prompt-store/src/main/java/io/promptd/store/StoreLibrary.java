package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.library.Feed;
import io.promptd.library.FeedRunner;
import io.promptd.library.Library;
import io.promptd.library.LibraryFiles;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Library} served from the store and kept current by its change feed: the
 * {@link StoreDatabase}'s listening connection {@code LISTEN}s on the channel publishes notify, and
 * each notification loads the files changed since the version served (on the feed's own thread,
 * with a pooled connection). If the database goes away the library keeps serving its last snapshot
 * while the listening connection reconnects with backoff (capped at 5 s); on reconnect it catches
 * up by version, the same query as for a notification, so no change is missed. Every 5 s it also
 * compares versions without a notification: a safety net.
 *
 * <p>The first load takes the parsed index another replica serving the same label stored
 * ({@code library_index}; else the one of each file's newest version): prompt files whose content
 * it vouches for (by their {@code sha256}) are served without being parsed. A replica whose first
 * load parsed files stores a new index for the next one, when the library has at least
 * {@link LibraryOptions#cacheMinimumFiles()} files (a role that may not write only logs that it
 * could not).
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreLibrary implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");
  private static final long MAX_BACKOFF_MILLIS = 5_000;

  private final StoreDatabase database;
  private final boolean ownsDatabase;
  private final StoreUrl url;
  private final LibrarySource.Snapshot source;
  private final Library library;
  private final LibraryOptions options;
  private final Map<String, byte[]> files = new HashMap<>();
  private final Map<String, String> digests = new HashMap<>();
  /**
   * The feed's thread, woken to compare versions by a notification, the connection (back), or 5 s
   * gone by; its rounds are {@link Steps#round}.
   */
  private final FeedRunner feed;

  private volatile long version = -1;
  /** Whether the library serves A/B splits now; touched by the feed's thread only. */
  private boolean split;

  private volatile long indexStored = -1;

  /**
   * The library version whose files the library has taken (after {@link #version} moved to it), or
   * -1.
   */
  private volatile long taken = -1;

  /** Whether the listening connection listens on the channel now. */
  private volatile boolean connected;

  private @Nullable AutoCloseable listening;
  private @Nullable AutoCloseable listeningToLabels;
  /** What serving one label serves, or null when serving every file's newest version. */
  private final @Nullable LabelView view;

  private StoreLibrary(
      StoreDatabase database,
      boolean ownsDatabase,
      LibrarySource.Snapshot source,
      Library library,
      LibraryOptions options,
      @Nullable String label) {
    this.view = label == null ? null : new LabelView(label);
    this.database = database;
    this.ownsDatabase = ownsDatabase;
    this.url = database.url();
    this.source = source;
    this.library = library;
    this.options = options;
    this.feed = new FeedRunner(
        new Steps(), "io.promptd.store", "the store feed of " + url, "promptd-store-feed");
  }

  /**
   * Starts serving the store of {@code database}: the library starts empty and is filled by the
   * feed's first load, which happens in the background (see {@link #awaitLoaded}); a database that
   * is down now is retried with backoff. Closing the library leaves the database open.
   */
  public static StoreLibrary start(StoreDatabase database, LibraryOptions options)
      throws IOException {
    return start(database, options, null);
  }

  /**
   * Starts serving, as {@link #start(StoreDatabase, LibraryOptions)} does, the version of each file
   * that {@code label} points at: a prompt, a resource or a skill's file without that label is not
   * served, and any other file (a partial, an attachment, a {@code _folder.yaml}) without it is
   * served at its newest version. A label moved (on any replica: the feed also listens on
   * {@code promptd_labels}) reloads what changed, as a publish does. {@link #version()} is then the
   * store's library version plus the number of label-moving transactions.
   *
   * @param label a label's name (see {@link StoreLabels#check}), or null to serve every file's
   *     newest version
   * @throws IllegalArgumentException for a bad label
   */
  public static StoreLibrary start(
      StoreDatabase database, LibraryOptions options, @Nullable String label) throws IOException {
    requireNonNull(database, "database");
    if (label != null) {
      try {
        StoreLabels.check(label);
      } catch (StoreException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }
    return start(database, false, options, label);
  }

  /**
   * Starts serving the store at {@code url}, as {@link #start(StoreDatabase, LibraryOptions)} does
   * with a {@link StoreDatabase} of its own, closed with it.
   */
  public static StoreLibrary start(StoreUrl url, LibraryOptions options) throws IOException {
    requireNonNull(url, "url");
    requireNonNull(options, "options");
    StoreDatabase database = StoreDatabase.open(url);
    try {
      return start(database, true, options, null);
    } catch (IOException | RuntimeException e) {
      database.close();
      throw e;
    }
  }

  private static StoreLibrary start(
      StoreDatabase database, boolean owns, LibraryOptions options, @Nullable String label)
      throws IOException {
    requireNonNull(options, "options");
    LibrarySource.Snapshot source = LibrarySource.snapshot();
    StoreLibrary s =
        new StoreLibrary(database, owns, source, Library.open(source, options), options, label);
    try {
      s.listening = database.listen(
          StoreQueries.CHANNEL, s.new Listener()); // what it hears waits for the feed's start
      if (label != null) {
        s.listeningToLabels = database.listen(LabelQueries.CHANNEL, s.new Listener());
      }
    } catch (RuntimeException e) {
      s.library.close();
      throw e;
    }
    s.feed.start();
    return s;
  }

  /** The library; empty until the first load. */
  public Library library() {
    return library;
  }

  /** Whether the store was loaded at least once: the serving side's readiness. */
  public boolean loaded() {
    return feed.loaded();
  }

  /** Waits up to {@code timeout} for the first load; returns whether it happened. */
  public boolean awaitLoaded(Duration timeout) throws InterruptedException {
    return feed.awaitLoaded(timeout);
  }

  /**
   * Completes with the first load; never completes exceptionally (a store that stays away never
   * completes it).
   */
  public CompletionStage<Void> firstLoad() {
    return feed.firstLoad();
  }

  /** The library version served, or -1 before the first load. */
  public long version() {
    return version;
  }

  /**
   * Whether the feed is connected now (the listening connection listens on its channel), for tests.
   */
  boolean connected() {
    return connected;
  }

  /**
   * The library version whose files the library has taken, or -1; for tests, which wait for it
   * rather than for {@link #version()}: that one moves before the library takes the files.
   */
  long taken() {
    return taken;
  }

  /** The library version whose parsed index this replica stored, or -1; for tests. */
  long indexStored() {
    return indexStored;
  }

  /**
   * Waits until {@code condition} holds, looking again whenever the feed connects or disconnects,
   * serves a new version or stores an index; for tests.
   *
   * @return whether it held before {@code timeout}
   */
  boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    return feed.await(condition, timeout);
  }

  /** What the listening connection tells the feed: each wakes it to compare versions. */
  private final class Listener implements ChannelListener {
    @Override
    public void listening(boolean again) {
      // Listening first, then catching up: a publish committed in between is loaded now and
      // notified again.
      connected = true;
      feed.signal();
      feed.wake();
    }

    @Override
    public void notified(String payload) {
      feed.wake();
    }

    @Override
    public void quiet() {
      feed.wake();
    }

    @Override
    public void lost(Exception cause, long retryMillis) {
      connected = false;
      feed.signal();
      feed.unreachable(cause);
    }
  }

  /**
   * What the feed does that is the store's own: a round loads what changed, with a pooled
   * connection.
   */
  private final class Steps implements Feed {
    @Override
    public void round() throws Unreachable {
      Connection connection;
      try {
        connection = database.connection(StoreDatabase.LONG_WAIT_MILLIS);
      } catch (SQLException | RuntimeException e) {
        throw new Unreachable(e);
      }
      try (Connection c = connection) {
        catchUp(c);
      } catch (SQLException e) {
        throw new Unreachable(e);
      }
    }

    @Override
    public String unreachable(Exception e) {
      long served = version;
      return "store " + url + " unreachable (" + StoreException.reason(e) + "); "
          + (served < 0 ? "nothing loaded yet" : "serving library version " + served)
          + ", retrying with backoff up to " + MAX_BACKOFF_MILLIS + " ms";
    }

    @Override
    public String reachableAgain() {
      return "store " + url + " reachable again; serving library version " + version;
    }

    @Override
    public void stopping() {
      for (AutoCloseable l : new AutoCloseable[] {listening, listeningToLabels}) {
        if (l != null) {
          try {
            l.close();
          } catch (Exception e) {
            throw new IllegalStateException("never fails", e);
          }
        }
      }
    }
  }

  /**
   * Why the feed is not following the store now (one line: a round failed for a reason other than
   * the store being away, or its thread stopped), or null while it is. The serving side's
   * readiness; the store away is not such a problem, as the last version stays served and the feed
   * catches up once it is back.
   */
  public @Nullable String feedProblem() {
    return feed.problem();
  }

  /** Loads the files changed since the version served and hands the library its next snapshot. */
  private void catchUp(Connection c) throws SQLException {
    long since = Math.max(version, 0);
    LabelView v = view;
    StoreQueries.Changes changes = v == null ? StoreQueries.changesSince(c, since) : v.changes(c);
    if (changes.version() == version && changes.files().isEmpty()) {
      return;
    }
    if (v == null && changes.version() < since) {
      // The store went back in time (restored from a backup, recreated): what it holds now, from
      // scratch.
      LOG.log(
          Level.WARNING,
          "store " + url + " is at library version " + changes.version() + ", behind the " + version
              + " served; loading it whole");
      files.clear();
      digests.clear();
      changes = StoreQueries.changesSince(c, 0);
    }
    Map<String, String> sha256 = changes.sha256();
    changes.files().forEach((path, data) -> {
      if (data == null) {
        files.remove(path);
        digests.remove(path);
      } else {
        files.put(path, data);
        String digest = sha256.get(path);
        if (digest != null) {
          digests.put(path, digest);
        } else {
          digests.remove(path);
        }
      }
    });
    long before = version;
    int changed = changes.files().size();
    boolean first = before < 0;
    byte[] index = first ? StoreQueries.libraryIndex(c, indexLabel()) : null;
    // The version is the new one while the library takes the files (its listeners read it), and
    // goes back if that fails: the next wake tries again from the version served.
    long previous = version;
    long next = changes.version();
    version = next;
    LibraryFiles served;
    try {
      served = new LibraryFiles(next, files, digests);
      source.replace(served, index);
    } catch (RuntimeException | Error e) {
      version = previous;
      throw e;
    }
    if (v != null && (!v.splits().isEmpty() || split)) {
      library.split(v.splits().prompts(served, options));
      split = !v.splits().isEmpty();
    }
    taken = next;
    LOG.log(
        first ? Level.INFO : Level.DEBUG,
        () -> (first ? "loaded " : "updated to ") + "library version " + version + " from " + url
            + " (" + changed + " file(s) changed, " + files.size() + " served)");
    feed.markLoaded();
    feed.signal();
    if (first && files.size() >= options.cacheMinimumFiles()) {
      storeIndex(c);
    }
  }

  /**
   * The row of {@code library_index} this library reads and writes: its label's, {@code ""} without
   * one.
   */
  private String indexLabel() {
    LabelView v = view;
    return v == null ? "" : v.label();
  }

  /**
   * After the first load, which parsed files: the index of what it parsed, for the next replica to
   * start.
   */
  private void storeIndex(Connection c) {
    byte[] index = library.parsedIndex();
    if (index == null) {
      return;
    }
    try {
      StoreQueries.storeLibraryIndex(c, indexLabel(), version, index);
      indexStored = version;
      feed.signal();
      LOG.log(
          Level.DEBUG,
          () -> "stored the parsed library index (" + index.length + " bytes) for library version "
              + version);
    } catch (SQLException e) {
      LOG.log(
          Level.INFO,
          "could not store the parsed library index in " + url + " (" + StoreException.reason(e)
              + "); the next replica to start parses the files itself");
    }
  }

  /**
   * Stops the feed (and closes the database when it is its own); the library keeps serving what it
   * has.
   */
  @Override
  public void close() {
    feed.close();
    if (ownsDatabase) {
      database.close();
    }
    library.close();
  }
}
