package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.disk.IndexFormat;
import io.promptd.library.internal.disk.LibraryCache;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.parse.ParseResult;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.format.PromptParser;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * One full load of the prompt files into a {@link LibraryIndex}: each listed file is either
 * restored from the on-disk index or parsed on a pool, and the results are stored in listing order
 * once all are done; folder and resource files found by the same listing are loaded too, and the
 * skills whose {@code SKILL.md} it found.
 */
public final class LibraryLoad {
  /**
   * What a full load gives the library.
   *
   * @param served the prompts to serve
   * @param restored how many prompt files the index served
   * @param indexSize how many entries the index held
   */
  public record Outcome(List<PromptDefinition> served, int restored, int indexSize) {}

  private final FileSource source;
  private final LibraryOptions options;
  private final LibraryIndex index;
  private final List<FolderWalker.Found> loading = new ArrayList<>();
  private final List<Future<ParseResult>> parsing = new ArrayList<>();
  private final Map<Path, Boolean> folders = new ConcurrentHashMap<>();
  private int skipped;
  private int restored;

  /**
   * Lists every root once: prompt files are restored from {@code cache}'s index or parsed on a pool
   * while the listing goes on; folder files and resource files are loaded after it.
   */
  public static Outcome run(
      FileSource source,
      LibraryOptions options,
      LibraryIndex prompts,
      List<Index> indexes,
      LibraryCache cache)
      throws IOException {
    Map<FileRole, List<FolderWalker.Found>> byRole = new EnumMap<>(FileRole.class);
    LibraryLoad load = new LibraryLoad(source, options, prompts);
    Map<String, IndexFormat.Cached> cached;
    List<PromptDefinition> served;
    try (ExecutorService pool = Executors.newFixedThreadPool(options.parallelism())) {
      // The index is read on the pool while this thread lists the roots, from when the listing has
      // found as many prompt files as an index is kept for (never, for a small library); files met
      // before it is read wait for it, files met after it are restored or parsed at once.
      AtomicReference<@Nullable Future<Map<String, IndexFormat.Cached>>> reading =
          new AtomicReference<>(cache.worthReading(0) ? pool.submit(cache::read) : null);
      int[] promptFiles = {0};
      List<FolderWalker.Found> waiting = new ArrayList<>();
      AtomicReference<Map<String, IndexFormat.Cached>> index = new AtomicReference<>();
      for (Root root : source.roots()) {
        source.list(root, root.path(), f -> {
          if (f.role() != FileRole.PROMPT) {
            byRole.computeIfAbsent(f.role(), r -> new ArrayList<>()).add(f);
            return;
          }
          Future<Map<String, IndexFormat.Cached>> read = reading.get();
          if (read == null && cache.worthReading(++promptFiles[0])) {
            read = pool.submit(cache::read);
            reading.set(read);
          }
          if (index.get() == null && (read == null || !read.isDone())) {
            waiting.add(f);
          } else {
            if (index.get() == null && read != null) {
              index.set(read.resultNow());
              prompts.expect(index.get().size());
              waiting.forEach(w -> load.restoreOrSubmit(w, index.get(), pool));
              waiting.clear();
            }
            load.restoreOrSubmit(f, index.get(), pool);
          }
        });
      }
      Future<Map<String, IndexFormat.Cached>> read = reading.get();
      cached = read == null ? Map.of() : await(read);
      if (index.get() == null) {
        prompts.expect(cached.size());
      }
      for (FolderWalker.Found f : waiting) {
        load.restoreOrSubmit(f, cached, pool);
      }
      // In the indexes' order: the folder defaults before finish, which applies them to the
      // prompts.
      for (Index other : indexes) {
        if (other.role() != FileRole.PROMPT) {
          other.loadAll(byRole.getOrDefault(other.role(), List.of()), pool);
        }
      }
      served = load.finish(cached.values());
    }
    return new Outcome(served, load.restored, cached.size());
  }

  /** Serves a listed prompt file from the index if it vouches for it, else parses it. */
  private void restoreOrSubmit(
      FolderWalker.Found f, Map<String, IndexFormat.Cached> index, ExecutorService pool) {
    IndexFormat.Cached c = index.isEmpty() ? null : index.get(f.file().toString());
    if (c == null || !restore(f, c)) {
      submit(f, pool);
    }
  }

  private static <T> T await(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while loading", e);
    } catch (ExecutionException e) {
      throw new IOException("failed to load", e.getCause());
    }
  }

  private LibraryLoad(FileSource source, LibraryOptions options, LibraryIndex index) {
    this.source = source;
    this.options = options;
    this.index = index;
  }

  /**
   * Starts parsing a prompt file found by the load's listing, on {@code pool}: the parsing overlaps
   * the listing's system calls. Files over {@link LibraryOptions#maxFiles} are counted, not read.
   */
  void submit(FolderWalker.Found f, ExecutorService pool) {
    FileKind.Match match = f.match();
    if (match == null) {
      return;
    }
    if (loading.size() >= options.maxFiles()) {
      skipped++;
      return;
    }
    loading.add(f);
    parsing.add(pool.submit(() -> parse(f, match)));
  }

  /**
   * Serves a prompt file found by the load's listing from its on-disk index entry, without reading
   * it, when the file and its dependencies are unchanged since the entry was written.
   *
   * @return whether it did; if not, the caller {@link #submit submits} the file
   */
  boolean restore(FolderWalker.Found f, IndexFormat.Cached c) {
    FileKind.Match match = f.match();
    if (match == null
        || c.root() != f.root().index()
        || c.size() != f.stamp().size()
        || c.modified() != f.stamp().modified()
        || loading.size() + restored >= options.maxFiles()
        // An index written while errors did not stop a file may hold one that was served anyway.
        || hasError(c)
        || !LibraryCache.dependenciesUnchanged(c, source)) {
      return false;
    }
    PromptDefinition definition =
        LazyDefinition.of(source, options, f.root(), f.file(), match, c.prompt(), c.completable());
    index.storeCached(
        f.root(),
        f.file(),
        f.stamp(),
        c.last(f.file()),
        index.served(f.root(), f.file(), definition, c.nameLine(), c.scopes(), c.prompt()));
    restored++;
    return true;
  }

  private static boolean hasError(IndexFormat.Cached c) {
    for (IndexFormat.Problem p : c.problems()) {
      if (p.error()) {
        return true;
      }
    }
    return false;
  }

  private ParseResult parse(FolderWalker.Found f, FileKind.Match match) {
    try {
      byte[] data = source.readListed(f, options.maxPromptBytes(), folders);
      return PromptParser.parse(f.root(), f.file(), match, data, options, source);
    } catch (ParseException e) {
      return PromptParser.unreadable(f.file(), e);
    }
  }

  /**
   * Waits for every {@link #submit submitted} parse and stores it; returns the prompts to serve.
   *
   * @param cached the on-disk index's entries in its order, which lets the prompts come back sorted
   *     by name
   */
  List<PromptDefinition> finish(Collection<IndexFormat.Cached> cached) throws IOException {
    try {
      for (int i = 0; i < loading.size(); i++) {
        FolderWalker.Found f = loading.get(i);
        ParseResult result = parsing.get(i).get();
        if (!index.contains(f.file())) {
          index.store(f.root(), f.file(), f.stamp(), result, null);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while loading prompt files", e);
    } catch (ExecutionException e) {
      throw new IOException("failed to load prompt files", e.getCause());
    }
    if (skipped > 0) {
      index.rootProblem(Diagnostic.error(
          source.roots().getFirst().path(),
          0,
          "found " + (loading.size() + restored + skipped)
              + " prompt files, over the limit of " + options.maxFiles() + "; only the first "
              + options.maxFiles()
              + " are served"));
    }
    loading.clear();
    parsing.clear();
    folders.clear();
    index.rescopeAll();
    return index.served(cached);
  }
}
