package io.promptd.git;

import static java.util.Objects.requireNonNull;

import io.promptd.library.Diagnostic;
import io.promptd.library.Feed;
import io.promptd.library.FeedRunner;
import io.promptd.library.Library;
import io.promptd.library.LibraryFiles;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.eclipse.jgit.lib.ObjectId;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Library} served from the head of a Git branch and kept following it: a local clone
 * ({@link GitRemote#cloneIn}) is fetched at start, every poll interval, and whenever
 * {@link #fetchNow()} is called (a webhook); each new head commit's tree becomes the library's next
 * snapshot, so clients hear {@code list_changed}. A force-push is followed: the head is whatever
 * the branch points to now. A fetch that fails (the remote away, a bad token, the branch gone) is
 * logged, once per outage, and the last commit served stays served; a restart with the remote away
 * serves the commit the clone last fetched.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class GitLibrary implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.git");

  private final GitRemote remote;
  private final GitClone clone;
  private final Duration poll;
  private final LibrarySource.Snapshot source;
  private final Library library;
  private final AtomicLong fetchRequests = new AtomicLong();
  private final AtomicLong fetches = new AtomicLong();
  /**
   * The feed's thread: a fetch at start, on each {@link #fetchNow()} and every poll; its rounds are
   * {@link Steps}.
   */
  private final FeedRunner feed;

  private volatile @Nullable String commit;
  private volatile long version;

  private GitLibrary(
      GitRemote remote,
      GitClone clone,
      Duration poll,
      LibrarySource.Snapshot source,
      Library library) {
    this.remote = remote;
    this.clone = clone;
    this.poll = poll;
    this.source = source;
    this.library = library;
    this.feed = new FeedRunner(
        new Steps(), "io.promptd.git", "the Git feed of " + remote, "promptd-git-feed");
  }

  /**
   * Starts serving {@code remote}'s branch from its clone under {@code cacheRoot}: the library
   * starts empty (or with the commit the clone holds from an earlier run) and is filled by the
   * first fetch, in the background.
   *
   * @param poll how often to fetch; zero: only at start and on {@link #fetchNow()}
   * @throws IOException when the clone's folder cannot be made or opened
   */
  public static GitLibrary start(
      GitRemote remote, Path cacheRoot, Duration poll, LibraryOptions options) throws IOException {
    requireNonNull(remote, "remote");
    requireNonNull(cacheRoot, "cacheRoot");
    requireNonNull(options, "options");
    if (requireNonNull(poll, "poll").isNegative()) {
      throw new IllegalArgumentException(
          "GitLibrary.start: poll must not be negative, not " + poll);
    }
    GitClone clone = GitClone.open(remote, remote.cloneIn(cacheRoot));
    LibrarySource.Snapshot source = LibrarySource.snapshot();
    Library library;
    try {
      library = Library.open(source, options);
    } catch (IOException | RuntimeException e) {
      clone.close();
      throw e;
    }
    GitLibrary g = new GitLibrary(remote, clone, poll, source, library);
    g.feed.start();
    return g;
  }

  /**
   * Reads the head of {@code remote}'s branch once, fetching it into its clone under
   * {@code cacheRoot}.
   *
   * @throws IOException when the remote cannot be fetched or the commit read; the message holds no
   *     secret
   */
  public static GitCommit readHead(GitRemote remote, Path cacheRoot) throws IOException {
    requireNonNull(remote, "remote");
    requireNonNull(cacheRoot, "cacheRoot");
    try (GitClone clone = GitClone.open(remote, remote.cloneIn(cacheRoot))) {
      return GitTree.read(clone.repository(), clone.fetch());
    }
  }

  /** The library; empty until the first commit is read. */
  public Library library() {
    return library;
  }

  /** Whether a commit is served: the serving side's readiness. */
  public boolean loaded() {
    return feed.loaded();
  }

  /** Waits up to {@code timeout} for the first commit; returns whether it is served. */
  public boolean awaitLoaded(Duration timeout) throws InterruptedException {
    return feed.awaitLoaded(timeout);
  }

  /** Completes when the first commit is served; never completes exceptionally. */
  public CompletionStage<Void> firstLoad() {
    return feed.firstLoad();
  }

  /** The id of the commit served, or null before the first. */
  public @Nullable String commit() {
    return commit;
  }

  /** The remote followed. */
  public GitRemote remote() {
    return remote;
  }

  /**
   * Asks for a fetch now (a webhook heard of a push); returns at once, the fetch happens on the
   * feed's thread.
   */
  public void fetchNow() {
    fetchRequests.incrementAndGet();
    feed.wake();
  }

  /** How many times {@link #fetchNow()} was called; for tests. */
  long fetchRequests() {
    return fetchRequests.get();
  }

  /** How many fetches were tried; for tests. */
  long fetches() {
    return fetches.get();
  }

  /** Whether the last fetch failed; for tests. */
  boolean away() {
    return feed.away();
  }

  /** Waits until {@code condition} holds, looking again after each fetch; for tests. */
  boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    return feed.await(condition, timeout);
  }

  /**
   * What the feed does that is Git's own: it serves the clone's commit at start, then each round
   * fetches, and serves the head fetched. The remote away is logged once per outage; a commit the
   * library fails on is reported once, and the next fetch tries again.
   */
  private final class Steps implements Feed {
    @Override
    public void begin() {
      try {
        ObjectId known = clone.head();
        if (known != null) {
          serve(known, "from the clone in " + clone.dir());
        }
      } catch (IOException | RuntimeException | Error e) {
        LOG.log(
            Level.WARNING,
            "cannot read the clone in " + clone.dir() + " (" + clone.reason(e) + "); fetching "
                + remote + " again");
      }
    }

    @Override
    public void round() throws Unreachable, IOException {
      ObjectId head;
      try {
        fetches.incrementAndGet();
        head = clone.fetch();
      } catch (IOException | RuntimeException e) {
        throw new Unreachable(e);
      }
      feed.reached();
      serve(head, "fetched");
    }

    @Override
    public String unreachable(Exception e) {
      String served = commit;
      return "cannot fetch and read " + remote + " (" + clone.reason(e) + "); "
          + (served == null ? "nothing served yet" : "still serving commit " + served)
          + (poll.isZero() ? "" : ", retrying every " + poll.toMillis() + " ms");
    }

    @Override
    public String reachableAgain() {
      return "Git remote " + remote + " reachable again";
    }

    @Override
    public Duration poll() {
      return poll;
    }

    @Override
    public boolean roundAtStart() {
      return true;
    }

    @Override
    public Duration stopWait() {
      return Duration.ofSeconds(35);
    }
  }

  /** Serves {@code head} unless it is served already. */
  private void serve(ObjectId head, String how) throws IOException {
    if (head.name().equals(commit)) {
      return;
    }
    GitCommit c = GitTree.read(clone.repository(), head);
    long next = version + 1;
    source.replace(new LibraryFiles(next, c.files()));
    version = next;
    String before = commit;
    commit = c.id();
    LOG.log(
        Level.INFO,
        "serving commit " + c.id() + " of " + remote + " (" + how + "; "
            + c.files().size() + " file(s)" + (before == null ? "" : ", after " + before) + ")");
    feed.markLoaded();
    long errors = library.diagnostics().stream().filter(Diagnostic::isError).count();
    if (errors > 0) {
      // Each error was logged with its file and line as the library read them; this says which
      // commit holds them.
      LOG.log(
          Level.WARNING,
          "commit " + c.id() + " of " + remote + " has " + errors
              + " error(s): its files with errors are not served");
    }
  }

  /**
   * Why the feed is not following the branch now (one line: a commit fetched could not be served,
   * or its thread stopped), or null while it is. The serving side's readiness; the remote away is
   * not such a problem, as the last commit stays served and the feed catches up once it is back.
   */
  public @Nullable String feedProblem() {
    return feed.problem();
  }

  /** Stops following the branch and closes the library. */
  @Override
  public void close() {
    feed.close();
    clone.close();
    library.close();
  }
}
