package io.promptd.library.internal.source;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import io.promptd.library.FeedHealth;
import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Watches every wanted folder of the roots and hands batches of changed paths to a callback once
 * events have been quiet for the debounce time. Paths are reported, not events: a save through a
 * temporary file and a rename arrives as the final file's path, whatever sequence of create, modify
 * and delete produced it. New folders are watched as soon as they appear; on overflow the roots
 * themselves are reported, which makes the index rescan them.
 */
final class Watcher implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");
  /** However busy the folder, a batch is handed over at least this often. */
  private static final Duration MAX_DELAY = Duration.ofMillis(200);

  private final List<Root> roots;
  private final Duration debounce;
  private final Consumer<Set<Path>> onChange;
  private final WatchService service;
  private final Map<WatchKey, Path> keys = new ConcurrentHashMap<>();
  private final Thread thread;
  private final FeedHealth health = new FeedHealth("io.promptd.library", "the folder watcher");

  private Watcher(List<Root> roots, Duration debounce, Consumer<Set<Path>> onChange)
      throws IOException {
    this.roots = List.copyOf(roots);
    this.debounce = debounce;
    this.onChange = onChange;
    this.service = FileSystems.getDefault().newWatchService();
    this.thread = Thread.ofPlatform().daemon().name("promptd-library-watcher").unstarted(this::run);
  }

  /**
   * Registers every folder of {@code roots} and starts the watching thread.
   *
   * @param seen receives every prompt file met while registering, so the caller can catch up with
   *     changes made before the folders were watched
   */
  static Watcher start(
      List<Root> roots,
      Duration debounce,
      Consumer<Set<Path>> onChange,
      Consumer<FolderWalker.Found> seen)
      throws IOException {
    Watcher watcher = new Watcher(roots, debounce, onChange);
    try {
      for (Root root : roots) {
        watcher.registerTree(root, root.path(), seen);
      }
    } catch (IOException | RuntimeException e) {
      watcher.close();
      throw e;
    }
    watcher.thread.start();
    return watcher;
  }

  private void registerTree(Root root, Path dir, Consumer<FolderWalker.Found> seen)
      throws IOException {
    FolderWalker.walk(root, dir, seen, d -> {
      try {
        keys.put(d.register(service, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY), d);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot watch " + d + ": " + e.getMessage());
      }
    });
  }

  private void run() {
    try {
      while (true) {
        try {
          round();
        } catch (ClosedWatchServiceException e) {
          throw e; // closed: not a failure of this round
        } catch (RuntimeException | Error e) {
          // Whatever one round meets, the next change is still watched for.
          health.failed(e);
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed: stop quietly
    }
  }

  /** Waits for a change, gathers the changes that follow it closely, and hands them over. */
  private void round() throws InterruptedException {
    Set<Path> batch = new LinkedHashSet<>();
    drain(service.take(), batch);
    long deadline = System.nanoTime() + MAX_DELAY.toNanos();
    WatchKey next;
    while (System.nanoTime() < deadline
        && (next = service.poll(debounce.toNanos(), TimeUnit.NANOSECONDS)) != null) {
      drain(next, batch);
    }
    deliver(batch);
  }

  private void drain(WatchKey key, Set<Path> batch) {
    Path dir = keys.get(key);
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind().equals(OVERFLOW) || dir == null) {
        roots.forEach(r -> batch.add(r.path()));
        continue;
      }
      Path path = dir.resolve((Path) event.context());
      batch.add(path);
      if (event.kind().equals(ENTRY_CREATE) && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        watchNewFolder(path);
      }
    }
    if (!key.reset()) {
      keys.remove(key);
    }
  }

  private void watchNewFolder(Path dir) {
    for (Root root : roots) {
      if (root.contains(dir)) {
        try {
          registerTree(root, dir, found -> {});
        } catch (IOException e) {
          LOG.log(Level.WARNING, "cannot watch " + dir + ": " + e.getMessage());
        }
        return;
      }
    }
  }

  private void deliver(Set<Path> batch) {
    try {
      onChange.accept(batch);
      health.succeeded();
    } catch (RuntimeException | Error e) {
      // One bad batch must not stop hot reload for good.
      health.failed(e);
    }
  }

  /** Whether the watching thread still runs (for tests). */
  boolean running() {
    return thread.isAlive();
  }

  /** The feed's last problem, or null (for tests). */
  @Nullable
  String problem() {
    return health.problem();
  }

  /** Stops watching and waits briefly for the thread to end. */
  @Override
  public void close() {
    try {
      service.close();
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "closing the watch service: " + e.getMessage());
    }
    thread.interrupt();
    try {
      thread.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
