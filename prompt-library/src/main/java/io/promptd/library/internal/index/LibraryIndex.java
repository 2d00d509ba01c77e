package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.Severity;
import io.promptd.library.internal.disk.IndexFormat;
import io.promptd.library.internal.disk.StoredPrompt;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.internal.source.Listing;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.ParseResult;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.format.PromptParser;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.render.Definitions;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What the library knows about every prompt file: its last parse, its last good prompt (kept while
 * the file has errors), the library files it attaches, which files depend on which partials and
 * attachments, and which file owns each name. Confined to one thread at a time by its callers'
 * lock.
 */
public final class LibraryIndex implements Index {
  private final FileSource source;
  private final List<Root> roots;
  private final LibraryOptions options;
  private final FolderDefaults folders;
  private Map<Path, Entry> files = new HashMap<>();
  private final Map<Path, Entry> attaching = new HashMap<>();
  /** The files with problems, so that listing problems need not walk everything. */
  private final Set<Path> troubled = new HashSet<>();

  private final Map<Path, Set<Path>> dependents = new HashMap<>();
  private final NameClaims names = new NameClaims();
  private final List<Diagnostic> rootProblems = new ArrayList<>();
  private final List<Diagnostic> lastRefresh = new ArrayList<>();
  private final List<Diagnostic> lastKept = new ArrayList<>();

  /**
   * One prompt file.
   *
   * @param root its root
   * @param file the file
   * @param stamp its size and modification time before its latest parse
   * @param last its latest parse (for an entry from the on-disk index, its problems, dependencies
   *     and fingerprint)
   * @param lastOk whether the latest parse gave a prompt
   * @param good the prompt being served from it: the latest one that parsed, or null
   * @param attached the library files the served version attaches (the latest parse's when none was
   *     served)
   */
  public record Entry(
      Root root,
      Path file,
      Stamp stamp,
      ParseResult last,
      boolean lastOk,
      @Nullable Served good,
      Set<Path> attached) {
    @Nullable
    String name() {
      return good == null ? null : good.definition().name();
    }

    @Nullable
    PromptDefinition definition() {
      return good == null ? null : good.definition();
    }
  }

  /**
   * A prompt being served.
   *
   * @param definition what the catalog holds, with the scopes it requires once folder defaults are
   *     applied
   * @param nameLine the line that sets its name, for duplicate-name diagnostics
   * @param declared the scopes its front matter sets, or null when it takes its folder's default
   * @param stored its listing as the on-disk index held it, when it was restored from there (an
   *     index written again copies it instead of encoding the definition's prompt, which would
   *     decode it)
   */
  record Served(
      PromptDefinition definition,
      int nameLine,
      @Nullable Set<String> declared,
      @Nullable StoredPrompt stored) {}

  public LibraryIndex(FileSource source, LibraryOptions options, FolderDefaults folders) {
    this.source = source;
    this.roots = source.roots();
    this.options = options;
    this.folders = folders;
  }

  /**
   * A served prompt for {@code definition} from {@code file}, requiring its declared scopes or its
   * folder's default.
   */
  Served served(
      Root root,
      Path file,
      PromptDefinition definition,
      int nameLine,
      @Nullable Set<String> declared,
      @Nullable StoredPrompt stored) {
    return new Served(
        definition.withRequiredScopes(folders.effective(root, file, declared)),
        nameLine,
        declared,
        stored);
  }

  /**
   * Sizes the maps for {@code count} files before the first is stored, as an on-disk index tells
   * the load: growing them one doubling at a time rehashed 100,000 entries about twice over (~8% of
   * a restart's samples).
   */
  void expect(int count) {
    if (files.isEmpty()) {
      files = HashMap.newHashMap(count);
      names.expect(count);
    }
  }

  /** The definition of each name's winner, in no order. */
  List<PromptDefinition> served() {
    return names.served();
  }

  /**
   * The definition of each name's winner, sorted by name when {@code byName} allows: see
   * {@link NameClaims}.
   */
  List<PromptDefinition> served(Collection<IndexFormat.Cached> byName) {
    return names.served(byName);
  }

  /**
   * The files that serve or claim a prompt, in the order of {@code byName}: see {@link NameClaims}.
   */
  public List<Entry> servingByName(List<PromptDefinition> byName) {
    return names.servingByName(byName, files.size());
  }

  /** A refresh of at least this many files parses them in parallel. */
  private static final int PARALLEL_REFRESH = 64;

  /**
   * Re-reads what {@code changed} touches: prompt files, files that depend on a changed partial or
   * attachment, and whole folders that appeared or vanished.
   *
   * @param rescoped folders whose default scopes changed: the prompts under them that take it are
   *     re-evaluated
   * @return the names whose served prompt may have changed, with the definition to serve now (null:
   *     remove)
   */
  public Map<String, @Nullable PromptDefinition> refresh(
      Set<Path> changed, Listing listing, Set<Path> rescoped) {
    lastRefresh.clear();
    lastKept.clear();
    Set<Path> reparse = new LinkedHashSet<>();
    Set<Path> direct = new HashSet<>();
    for (Path path : changed) {
      Root root = rootOf(path);
      if (root != null) {
        collect(root, path, reparse, direct, listing);
      }
    }
    Set<String> touched = new LinkedHashSet<>();
    // Only a file that changed alone may be skipped as unchanged: its partials or attachments may
    // have changed. (One set, not a scan of every change per file: a snapshot of 10,000 new files
    // made that 10^8 look-ups.)
    Set<Path> usersOfChanged = new HashSet<>();
    for (Path p : changed) {
      usersOfChanged.addAll(dependents.getOrDefault(p, Set.of()));
    }
    Map<Path, ParseResult> parsed =
        reparse.size() >= PARALLEL_REFRESH ? parseAll(reparse) : Map.of();
    for (Path file : reparse) {
      reload(
          file, direct.contains(file) && !usersOfChanged.contains(file), touched, parsed.get(file));
    }
    if (!rescoped.isEmpty()) {
      rescope(file -> rescoped.stream().anyMatch(file::startsWith), touched);
    }
    Map<String, @Nullable PromptDefinition> result = new HashMap<>();
    for (String name : touched) {
      Entry winner = names.winner(name);
      result.put(name, winner == null ? null : winner.definition());
    }
    return result;
  }

  /**
   * Adds to {@code reparse} the files a change at {@code path} may affect; {@code direct} gets
   * changed files.
   */
  private void collect(Root root, Path path, Set<Path> reparse, Set<Path> direct, Listing listing) {
    if (source.isFolder(path)) {
      // A new folder, or a rescan after the watcher overflowed: read what is there, drop what is
      // gone.
      for (FolderWalker.Found f : listing.under(root, path)) {
        if (f.role() == FileRole.PROMPT) {
          reparse.add(f.file());
        }
      }
      for (Path known : files.keySet()) {
        if (known.startsWith(path) && !source.present(known)) {
          reparse.add(known);
        }
      }
      // Files written into a new folder before it was watched raise no event of their own.
      dependents.forEach((dependency, users) -> {
        if (dependency.startsWith(path)) {
          reparse.addAll(users);
        }
      });
    } else if (files.containsKey(path) || FileKind.classify(root, path) != null) {
      reparse.add(path);
      direct.add(path);
    } else if (!source.present(path)) {
      // Perhaps a folder that was deleted or moved away: drop what was under it.
      for (Path known : files.keySet()) {
        if (known.startsWith(path)) {
          reparse.add(known);
        }
      }
    }
    reparse.addAll(dependents.getOrDefault(path, Set.of()));
  }

  /**
   * Parses {@code files} on {@link LibraryOptions#parallelism()} threads, for a refresh that
   * touches many files at once (a store snapshot's first load, a rescan): parsing reads the source
   * and nothing of this index's state, so the results are applied one by one afterwards, in order,
   * as a small refresh applies its own.
   */
  private Map<Path, ParseResult> parseAll(Set<Path> paths) {
    Map<Path, ParseResult> out = new ConcurrentHashMap<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(options.parallelism())) {
      for (Path file : paths) {
        Entry old = files.get(file);
        Root root = old != null ? old.root() : rootOf(file);
        FileKind.Match match = root == null ? null : FileKind.classify(root, file);
        if (root != null && match != null) {
          pool.execute(() -> {
            if (source.present(file)) {
              out.put(file, parse(root, file, match));
            }
          });
        }
      }
    }
    return out;
  }

  private ParseResult parse(Root root, Path file, FileKind.Match match) {
    try {
      return PromptParser.parse(
          root,
          file,
          match,
          source.read(root, file, options.maxPromptBytes(), 0, "prompt file"),
          options,
          source);
    } catch (ParseException e) {
      return PromptParser.unreadable(file, e);
    }
  }

  /**
   * Reparses {@code file} (or takes {@code parsed}, parsed already) and stores what it serves now.
   */
  private void reload(
      Path file, boolean direct, Set<String> touched, @Nullable ParseResult parsed) {
    Entry old = files.get(file);
    Root root = old != null ? old.root() : rootOf(file);
    FileKind.Match match = root == null ? null : FileKind.classify(root, file);
    if (root == null || match == null || !source.present(file)) {
      if (old != null) {
        forget(old, touched);
      }
      return;
    }
    Stamp stamp = source.stamp(file);
    if (direct && old != null && old.stamp().unchanged(stamp)) {
      return; // only its access time changed: someone read it
    }
    ParseResult result = parsed != null ? parsed : parse(root, file, match);
    lastRefresh.addAll(result.diagnostics());
    if (direct
        && old != null
        && old.good() != null
        && old.lastOk()
        && result.prompt() != null
        && old.last().fingerprint() == result.fingerprint()) {
      return; // saved without a change: nothing to tell clients
    }
    if (old != null) {
      forget(old, touched);
    }
    Entry stored = store(root, file, stamp != null ? stamp : new Stamp(-1, -1, 0), result, old);
    Diagnostic kept = kept(stored);
    if (kept != null) {
      lastKept.add(kept);
    }
    if (stored.name() != null) {
      touched.add(stored.name());
    }
  }

  Entry store(Root root, Path file, Stamp stamp, ParseResult result, @Nullable Entry previous) {
    PromptFile parsed = result.prompt();
    Served good;
    if (parsed != null) {
      good = served(root, file, Definitions.of(parsed), parsed.nameLine(), parsed.scopes(), null);
    } else if (previous != null && previous.good() != null) {
      // Keep serving the last version that parsed while the author fixes this one.
      good = previous.good();
    } else {
      good = null;
    }
    Set<Path> attached = parsed == null && previous != null && previous.good() != null
        ? previous.attached()
        : result.attachments();
    return put(new Entry(root, file, stamp, result, parsed != null, good, attached));
  }

  /**
   * Applies the folder defaults known now to every prompt: a load restores prompts before it has
   * read them all.
   */
  void rescopeAll() {
    if (!folders.isEmpty()) {
      rescope(file -> true, new HashSet<>());
    }
  }

  /**
   * Re-evaluates the scopes of the prompts whose files {@code under} accepts and that take their
   * folder's default; adds the names whose scopes changed to {@code touched}.
   */
  private void rescope(Predicate<Path> under, Set<String> touched) {
    for (Entry entry : List.copyOf(files.values())) {
      Served good = entry.good();
      String name = entry.name();
      if (good == null || name == null || good.declared() != null || !under.test(entry.file())) {
        continue;
      }
      Set<String> scopes = folders.effective(entry.root(), entry.file(), null);
      if (!scopes.equals(good.definition().requiredScopes())) {
        Served now = new Served(
            good.definition().withRequiredScopes(scopes), good.nameLine(), null, good.stored());
        Entry updated = new Entry(
            entry.root(),
            entry.file(),
            entry.stamp(),
            entry.last(),
            entry.lastOk(),
            now,
            entry.attached());
        names.release(name, entry);
        files.put(entry.file(), updated);
        attaching.computeIfPresent(entry.file(), (f, old) -> updated);
        names.claim(name, updated);
        touched.add(name);
      }
    }
  }

  /**
   * Stores an entry the on-disk index vouched for: its file is unchanged since the index was
   * written.
   */
  void storeCached(Root root, Path file, Stamp stamp, ParseResult last, Served good) {
    if (!files.containsKey(file)) {
      put(new Entry(root, file, stamp, last, true, good, last.attachments()));
    }
  }

  private Entry put(Entry entry) {
    Path file = entry.file();
    Set<Path> attached = entry.attached();
    ParseResult result = entry.last();
    files.put(file, entry);
    if (!attached.isEmpty()) {
      attaching.put(file, entry);
    }
    if (!result.diagnostics().isEmpty() || !entry.lastOk()) {
      troubled.add(file);
    }
    for (Path dependency : result.dependencies()) {
      dependents.computeIfAbsent(dependency, k -> new HashSet<>()).add(file);
    }
    String name = entry.name();
    if (name != null) {
      names.claim(name, entry);
    }
    return entry;
  }

  private void forget(Entry entry, Set<String> touched) {
    files.remove(entry.file());
    attaching.remove(entry.file());
    troubled.remove(entry.file());
    for (Path dependency : entry.last().dependencies()) {
      Set<Path> users = dependents.get(dependency);
      if (users != null && users.remove(entry.file()) && users.isEmpty()) {
        dependents.remove(dependency);
      }
    }
    String name = entry.name();
    if (name != null) {
      touched.add(name);
      names.release(name, entry);
    }
  }

  /**
   * The latest parse of each file whose prompt is served, by file: what {@code promptd check
   * --clients} reads (a file restored from the on-disk index has none and is left out).
   */
  public List<PromptFile> parsedServing() {
    List<PromptFile> out = new ArrayList<>();
    for (Entry e : files.values()) {
      PromptFile parsed = e.last().prompt();
      String name = e.name();
      if (e.lastOk() && parsed != null && name != null && isWinner(name, e)) {
        out.add(parsed);
      }
    }
    out.sort(Comparator.comparing(p -> p.file().toString()));
    return out;
  }

  @SuppressWarnings("ReferenceEquality") // the very entry, not an equal one from another file
  private boolean isWinner(String name, Entry e) {
    return winner(name) == e;
  }

  /** The file whose prompt is served under {@code name}, or null. */
  @Nullable
  Entry winner(String name) {
    return names.winner(name);
  }

  /** The first root that {@code path} is, or lies under. */
  @Nullable
  public Root rootOf(Path path) {
    for (Root root : roots) {
      if (path.startsWith(root.path())) {
        return root;
      }
    }
    return null;
  }

  /**
   * Every problem of the last load or reload, sorted by file and line, duplicates reported as
   * {@code severity}.
   */
  public List<Diagnostic> diagnostics(Severity duplicates) {
    List<Diagnostic> out = new ArrayList<>(rootProblems);
    for (Path file : troubled) {
      Entry entry = files.get(file);
      if (entry == null) {
        continue;
      }
      out.addAll(entry.last().diagnostics());
      Diagnostic kept = kept(entry);
      if (kept != null) {
        out.add(kept);
      }
    }
    for (NavigableSet<Entry> candidates : names.contested()) {
      Entry winner = candidates.first();
      for (Entry loser : candidates.tailSet(winner, false)) {
        Served good = loser.good();
        out.add(new Diagnostic(
            duplicates,
            loser.file(),
            good == null ? 0 : good.nameLine(),
            "prompt name '" + loser.name() + "' is also claimed by " + winner.file()
                + ", which wins (roots in the"
                + " order given, then paths in order); this file is not served"));
      }
    }
    out.sort(Problems.ORDER);
    return out;
  }

  /**
   * The warning that {@code entry}, whose latest version has errors, still serves its last good
   * one; null when it does not.
   */
  private static @Nullable Diagnostic kept(Entry entry) {
    return !entry.lastOk() && entry.good() != null
        ? Diagnostic.warning(
            entry.file(), 0, "serving the last version that loaded until the errors are fixed")
        : null;
  }

  /**
   * The problems of the files parsed by the last {@link #refresh}, for logging without walking
   * everything.
   */
  public List<Diagnostic> lastRefreshDiagnostics() {
    return List.copyOf(lastRefresh);
  }

  /**
   * A warning for each file the last {@link #refresh} parsed with errors whose last good version
   * stays served.
   */
  public List<Diagnostic> lastRefreshKept() {
    return List.copyOf(lastKept);
  }

  /**
   * The prompt files that appeared, vanished or changed size or modification time compared with
   * {@code now}.
   */
  @Override
  public Set<Path> changedSince(Map<Path, FolderWalker.Found> now) {
    Set<Path> changed = new HashSet<>();
    now.forEach((file, found) -> {
      if (found.role() != FileRole.PROMPT) {
        return;
      }
      Stamp stamp = found.stamp();
      Entry entry = files.get(file);
      if (entry == null
          || entry.stamp().size() != stamp.size()
          || entry.stamp().modified() != stamp.modified()) {
        changed.add(file);
      }
    });
    for (Path known : files.keySet()) {
      if (!now.containsKey(known)) {
        changed.add(known);
      }
    }
    return changed;
  }

  /** The prompt files that attach library files, which are served as resources. */
  public Collection<Entry> attaching() {
    return attaching.values();
  }

  /** Records a problem of the library as a whole, such as too many files. */
  void rootProblem(Diagnostic d) {
    rootProblems.add(d);
  }

  /** Whether {@code file} is known. */
  boolean contains(Path file) {
    return files.containsKey(file);
  }

  /** Whether a prompt file, served or not, is known under the root numbered {@code index}. */
  public boolean anyFileUnder(int index) {
    for (Entry e : files.values()) {
      if (e.root().index() == index) {
        return true;
      }
    }
    return false;
  }

  /** How many prompt files are known. */
  public int fileCount() {
    return files.size();
  }

  @Override
  public FileRole role() {
    return FileRole.PROMPT;
  }

  @Override
  public void loadAll(List<FolderWalker.Found> found, ExecutorService pool) {
    throw new UnsupportedOperationException(
        "prompt files are restored or parsed by LibraryLoad as the listing finds them");
  }

  @Override
  public void reload(Reload reload) {
    reload.updates(refresh(reload.changed(), reload.listing(), reload.rescoped()));
  }
}
