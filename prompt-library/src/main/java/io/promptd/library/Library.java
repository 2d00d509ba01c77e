package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.internal.disk.LibraryCache;
import io.promptd.library.internal.index.CachedEntries;
import io.promptd.library.internal.index.FolderDefaults;
import io.promptd.library.internal.index.Index;
import io.promptd.library.internal.index.LibraryIndex;
import io.promptd.library.internal.index.LibraryLoad;
import io.promptd.library.internal.index.LibraryResources;
import io.promptd.library.internal.index.PromptVersions;
import io.promptd.library.internal.index.Reload;
import io.promptd.library.internal.index.ResourceIndex;
import io.promptd.library.internal.index.SkillIndex;
import io.promptd.library.internal.skills.LibrarySkills;
import io.promptd.library.internal.skills.SkillFile;
import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.library.internal.skills.SkillPrompts;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.internal.source.Listing;
import io.promptd.library.internal.source.SnapshotSource;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptSplit;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.ServerText;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.spi.Caller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * Prompt files served as MCP prompts and resources, from a {@link LibrarySource} — folders, or a
 * snapshot held elsewhere: one listing, one stream of changes (a watcher's, or a snapshot's
 * replacements) and one parse per file feed both.
 *
 * <p>Reads {@code NAME.prompt.md} files (YAML front matter and a Mustache body), Claude Code
 * commands under {@code .claude/commands/}, VS Code prompt files under {@code .github/prompts/},
 * and {@code NAME.resource.md} resource files; the files prompts attach are served as
 * {@code promptd:///PATH} resources. Every folder holding a {@code SKILL.md} (under a root, or
 * under a project's {@code .claude/skills}) is read as an Agent SkillFolder, checked and reloaded
 * like a prompt file, and served through the Skills extension by {@link #skillProvider()}. A
 * {@code scopes} key in front matter, or in a {@code _folder.yaml} for a folder and those below it,
 * limits who may see a prompt or resource once the server authorizes callers (see
 * {@link io.promptd.mcp.spi.Caller}). A file with errors is not served (or, during hot reload, its
 * last good version stays served) and its problems are in {@link #diagnostics()}. When two files
 * claim one prompt name or resource URI, the first root given wins, then the path that sorts first.
 *
 * <pre>{@code
 * LibrarySource folders = LibrarySource.folders(List.of(Path.of("prompts")));
 * try (Library library = Library.open(folders, LibraryOptions.defaults())) {
 *   library.watch();
 *   McpServer server = McpServer.builder()
 *       .prompts(library.catalog()).resources(library).skills(library.skillProvider()).build();
 *   ...
 * }
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class Library implements ResourceProvider, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final FileSource source;
  private final LibraryOptions options;
  private final FolderDefaults folders;
  private final LibraryIndex prompts;
  private final ResourceIndex resourceIndex;
  private final LibraryResources resources;
  private final SkillIndex skillIndex;
  /** The four indexes, in the order a load and a reload run them. */
  private final List<Index> indexes;

  private final List<Runnable> skillListeners = new CopyOnWriteArrayList<>();
  private final LibrarySkills skillProvider;
  private final SkillPrompts skillPrompts;
  private final PromptCatalog catalog = PromptCatalog.create();
  private final PromptVersions versions;
  private final Object lock = new Object();
  /** The A/B splits served, by prompt name ({@link #split}); guarded by {@link #lock}. */
  private Map<String, PromptSplit> splits = Map.of();

  private volatile State state =
      new State(0, ResourceIndex.Snapshot.EMPTY, SkillIndex.Snapshot.EMPTY);
  private @Nullable AutoCloseable watcher;
  private final FeedHealth watching = new FeedHealth("io.promptd.library", "hot reload");
  private boolean closed;
  private int restored;
  /** How many prompt files the first snapshot took from the index handed over; -1 when none was. */
  private int restoredFromGiven = -1;

  private @Nullable Thread indexWriter;

  /**
   * What the library serves at one moment besides its prompts, which {@link #catalog()} holds.
   *
   * @param version grows by one with every load or reload that changed what is served
   * @param resources the resources
   * @param skills the skills
   */
  private record State(
      long version, ResourceIndex.Snapshot resources, SkillIndex.Snapshot skills) {}

  private Library(FileSource source, LibraryOptions options) {
    this.source = source;
    this.options = options;
    this.folders = new FolderDefaults(source, options);
    this.prompts = new LibraryIndex(source, options, folders);
    this.versions = new PromptVersions(source);
    this.skillProvider =
        new LibrarySkills(this::skills, this::readSkillFile, file -> reload(Set.of(file)));
    this.skillPrompts = new SkillPrompts(
        skillProvider::read,
        this::readForPrompt,
        options.skillFilesBudget(),
        ServerText.of(options.locale()));
    this.resourceIndex = new ResourceIndex(source, options, folders);
    this.resources = new LibraryResources(source, options);
    this.skillIndex = new SkillIndex(source);
    this.indexes = List.of(folders, prompts, resourceIndex, skillIndex);
  }

  /**
   * Reads every prompt file, resource file and attachment of {@code source}: its folders, or its
   * snapshot.
   *
   * @param source the folders or the snapshot to serve
   * @param options limits and timings; a snapshot ignores the cache directory
   * @throws IOException if a root is not a readable folder
   * @throws IllegalStateException if {@code source} is a snapshot that serves a library already
   */
  public static Library open(LibrarySource source, LibraryOptions options) throws IOException {
    requireNonNull(source, "source");
    requireNonNull(options, "options");
    long start = System.nanoTime();
    Library library = source.open(options, "Library.open");
    long millis = (System.nanoTime() - start) / 1_000_000;
    switch (source) {
      case LibrarySource.Folders folders -> library.logLoad(folders.roots(), millis);
      case LibrarySource.Snapshot snapshot ->
        LOG.log(
            Level.DEBUG,
            () -> "loaded " + library.catalog.size() + " prompts from " + library.source
                + " (version " + snapshot.version() + ") in " + millis + " ms");
    }
    return library;
  }

  /** Logs a folder load's outcome and its problems. */
  private void logLoad(List<Path> roots, long millis) {
    List<Diagnostic> problems = diagnostics();
    // Concatenation, not String.format: the first Formatter call loads locale data at start.
    long errors = problems.stream().filter(Diagnostic::isError).count();
    ResourceIndex.Snapshot r = state.resources();
    LOG.log(
        Level.INFO,
        () -> "loaded " + catalog.size() + " prompts from " + prompts.fileCount()
            + " files, " + r.resources().size() + " resource(s) and "
            + r.templates().size() + " template(s), " + state.skills().skills().size()
            + " skill(s) under "
            + roots + " in " + millis + " ms (" + errors + " errors, " + (problems.size() - errors)
            + " warnings)");
    for (Diagnostic d : problems) {
      LOG.log(d.isError() ? Level.ERROR : Level.INFO, d.format());
    }
  }

  /** A library over {@code source}, loaded; for {@link LibrarySource}. */
  static Library serve(FileSource source, LibraryOptions options) throws IOException {
    Library library = new Library(source, options);
    synchronized (library.lock) {
      library.loadAll();
    }
    return library;
  }

  /**
   * Serves {@code files} from now on, for {@link LibrarySource.Snapshot#replace(LibraryFiles,
   * byte[])}, whose Javadoc says what {@code index} does: {@code snapshot} is this library's
   * source.
   *
   * @throws IllegalStateException when this library is closed
   */
  void replace(SnapshotSource snapshot, LibraryFiles files, byte @Nullable [] index) {
    Set<Path> changed;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("Library.replace: the library is closed");
      }
      boolean first = prompts.fileCount() == 0 && snapshot.empty();
      changed = snapshot.replace(files);
      if (index != null && first && !changed.isEmpty()) {
        State before = state;
        try {
          loadAll(LibraryCache.of(source.roots(), options).reading(index));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        restoredFromGiven = restored;
        State after = state;
        LOG.log(
            Level.DEBUG,
            () -> "first snapshot: " + restored + " of " + prompts.fileCount()
                + " prompt files served from the index handed over");
        resources.announce(before.resources(), after.resources(), changed);
        return;
      }
    }
    // Outside the lock, as the watcher's reloads are: a reload reads the source as it is then, so
    // two replacements racing each other still end on the last one.
    if (!changed.isEmpty()) {
      reload(changed);
    }
  }

  /**
   * One listing of every root; prompt files are parsed by a pool while the listing goes on, except
   * those the on-disk index vouches for, which are served from it and parsed when first rendered.
   */
  private void loadAll() throws IOException {
    loadAll(LibraryCache.of(source.roots(), options));
  }

  private void loadAll(LibraryCache cache) throws IOException {
    LibraryLoad.Outcome loaded = LibraryLoad.run(source, options, prompts, indexes, cache);
    State before = state;
    SkillIndex.Snapshot skills = skillIndex.snapshot(folders);
    catalog.update(editor -> {
      editor.replaceAll(
          loaded.served().stream().map(d -> d.withSplit(splits.get(d.name()))).toList());
      skillPrompts.forget();
      skillPrompts.sync(editor, skills.skills(), options.skillPrompts(), List.of());
    });
    versions.clear(catalog.size());
    Map<String, SkillFolder> skillsServed = skillPrompts.served();
    catalog.all().forEach(d -> versions.note(d.name(), prompts, skillsServed));
    state = new State(before.version() + 1, resourceIndex.snapshot(prompts.attaching()), skills);
    announceSkills(before.skills(), skills);
    int fromIndex = loaded.restored();
    if ((fromIndex != prompts.fileCount() || fromIndex != loaded.indexSize())
        && cache.writes(prompts.fileCount())) {
      // Entries are immutable: a copy of the list lets the index be written while the library
      // already serves. In the catalog's order, by prompt name, for the next restart (sorting
      // them in the writer costs far more CPU after a cold load). No thread at all for a library
      // too small to be indexed: the first virtual thread starts their scheduler.
      List<LibraryIndex.Entry> entries = prompts.servingByName(catalog.all());
      int files = prompts.fileCount();
      indexWriter = Thread.ofVirtual()
          .name("promptd-library-index")
          .start(() -> cache.write(entries, files, e -> CachedEntries.of(e, source)));
    }
    this.restored = fromIndex;
    LOG.log(
        Level.DEBUG,
        () -> fromIndex + " of " + prompts.fileCount() + " prompt files served from the index");
  }

  /**
   * The parsed index of what this snapshot library serves, for
   * {@link LibrarySource.Snapshot#replace(LibraryFiles, byte[])} of another library over the same
   * or a later snapshot (a store keeps it beside its files, so that a new replica need not parse
   * them); null when this library serves folders (their index is a file of its own), or when the
   * index its first snapshot was handed vouched for every prompt file that an index can hold (those
   * without errors): a new one would say the same.
   */
  public byte @Nullable [] parsedIndex() {
    if (!(source instanceof SnapshotSource)) {
      return null;
    }
    List<LibraryIndex.Entry> entries;
    int given;
    synchronized (lock) {
      entries = prompts.servingByName(catalog.all());
      given = restoredFromGiven;
    }
    // Entries are immutable: encoded outside the lock, while the library goes on serving.
    return LibraryCache.of(source.roots(), options)
        .encode(entries, e -> CachedEntries.of(e, source), given);
  }

  /** How many prompt files the load served from the on-disk index, for tests. */
  int restoredFromIndex() {
    return restored;
  }

  /**
   * The prompts being served; it changes in place as files change once {@link #watch()} was called.
   */
  public PromptCatalog catalog() {
    return catalog;
  }

  /**
   * Grows by one with every load or reload that changed what is served (prompts, resources or
   * attached files); it never goes down.
   */
  public long version() {
    return state.version();
  }

  /**
   * The problems found by the last load or reload, prompts' and resources' alike, sorted by file
   * and line.
   */
  public List<Diagnostic> diagnostics() {
    return problems(Severity.WARNING);
  }

  /**
   * For {@link Linter}: the folders it reads, in order, under which neither a prompt file nor a
   * skill was found; none for a snapshot.
   */
  List<Path> foldersWithoutPromptFiles() {
    List<Path> out = new ArrayList<>();
    if (source instanceof FolderSource) {
      synchronized (lock) {
        for (Root root : source.roots()) {
          if (!prompts.anyFileUnder(root.index()) && !skillIndex.anyUnder(root)) {
            out.add(root.path());
          }
        }
      }
    }
    return out;
  }

  /** For {@link Linter}: the parsed files whose prompts are served, by file. */
  List<PromptFile> promptFiles() {
    synchronized (lock) {
      return prompts.parsedServing();
    }
  }

  /** For {@link Linter}: the same problems, with duplicate prompt names counted as errors. */
  List<Diagnostic> lint() {
    return problems(Severity.ERROR);
  }

  private List<Diagnostic> problems(Severity duplicates) {
    List<Diagnostic> all;
    synchronized (lock) {
      all = new ArrayList<>(prompts.diagnostics(duplicates));
      all.addAll(folders.diagnostics());
      all.addAll(skillPrompts.diagnostics());
    }
    all.addAll(state.resources().diagnostics());
    all.addAll(state.skills().diagnostics());
    all.sort(Problems.ORDER);
    return List.copyOf(all);
  }

  /**
   * The skills served, sorted by path: one immutable snapshot, the same for every caller (scopes
   * are carried, not applied here). Package-private until the Skills extension gives them a public
   * shape.
   */
  List<SkillFolder> skills() {
    return state.skills().skills();
  }

  /**
   * Runs {@code listener} after each load or reload that changed the skills served (a skill added,
   * removed, or any of its files changed); close the handle to stop. It runs on the thread that
   * reloaded, after the new skills are served.
   */
  AutoCloseable onSkillsChange(Runnable listener) {
    requireNonNull(listener, "listener");
    skillListeners.add(listener);
    return () -> skillListeners.remove(listener);
  }

  /**
   * The skills for the Skills extension ({@code io.modelcontextprotocol/skills}): one entry per
   * skill, sorted by path, at {@code skill://<skill-path>/SKILL.md}, with its front matter and a
   * manifest of every file (a nested skill's too); a caller sees a skill when it holds the skill's
   * {@code _folder.yaml} scopes. Register it with
   * {@link io.promptd.mcp.server.McpServer.Builder#skills}.
   */
  public SkillProvider skillProvider() {
    return skillProvider;
  }

  /**
   * The resources, sorted by URI: the resource files and attachments, then every file of every
   * skill as {@code skill://<skill-path>/<file-path>} (a nested skill's files once, under their own
   * skill).
   */
  @Override
  public List<Resource> resources() {
    return skillProvider.mergedWith(state.resources().resources());
  }

  /** Reads a skill's file through the library's source, inside the root it was found under. */
  private byte[] readSkillFile(Path file, long limit) throws ParseException {
    Root root = prompts.rootOf(file);
    if (root == null) {
      throw new ParseException(0, "skill file " + file + " is under no root");
    }
    return source.read(root, file, limit, 0, "skill file");
  }

  /**
   * Reads a skill's file for its prompt, as {@code resources/read} would, but only from inside the
   * skill's own folder once links are resolved: null when it lies outside, holds more than
   * {@code limit} bytes or cannot be read now (the prompt then links it).
   */
  private byte @Nullable [] readForPrompt(SkillFolder skill, SkillFile file, long limit) {
    Path path = skill.file().resolveSibling(file.path());
    Path dir = skill.file().getParent();
    Root root = prompts.rootOf(path);
    if (root == null || dir == null) {
      return null;
    }
    try {
      return source.read(source.narrowed(root, dir), path, limit, 0, "skill file");
    } catch (ParseException | IOException e) {
      LOG.log(
          Level.DEBUG,
          () -> "skill '" + skill.path() + "': " + file.path() + " is linked, not embedded: "
              + e.getMessage());
      return null;
    }
  }

  /** The resource templates, sorted by URI template. */
  @Override
  public List<ResourceTemplate> templates() {
    return state.resources().templates();
  }

  /**
   * Reads a resource: a fixed one from memory, an attachment from its file (inside the root only),
   * or the first template that matches {@code uri}, rendered with the values taken from it.
   *
   * @throws io.promptd.mcp.jsonrpc.McpException when an attachment cannot be read now (deleted,
   *     grown over the limit, not UTF-8)
   */
  @Override
  public Optional<List<ResourceContents>> read(String uri) {
    requireNonNull(uri, "uri");
    if (LibrarySkills.owns(uri)) {
      return skillProvider.read(uri);
    }
    return resources.read(state.resources(), uri);
  }

  /**
   * Whether {@code caller} may see the resource at {@code uri}: a resource file by its scopes (its
   * own, else its folder's default); an attached file when the caller may see any served prompt
   * that attaches it.
   */
  @Override
  public boolean visible(Caller caller, String uri) {
    requireNonNull(caller, "caller");
    requireNonNull(uri, "uri");
    if (LibrarySkills.owns(uri)) {
      return skillProvider.fileVisible(caller, uri);
    }
    return LibraryResources.visible(state.resources(), caller, uri);
  }

  /**
   * Reads a resource for {@code caller}: empty when it may not see it; both decided on one state of
   * the library.
   */
  @Override
  public Optional<List<ResourceContents>> read(String uri, Caller caller) {
    requireNonNull(uri, "uri");
    requireNonNull(caller, "caller");
    if (LibrarySkills.owns(uri)) {
      return skillProvider.fileVisible(caller, uri) ? skillProvider.read(uri) : Optional.empty();
    }
    ResourceIndex.Snapshot s = state.resources();
    return LibraryResources.visible(s, caller, uri) ? resources.read(s, uri) : Optional.empty();
  }

  /**
   * Whether {@code caller} may see {@code template}: by its file's scopes, as for
   * {@link #visible(Caller, String)}.
   */
  @Override
  public boolean visible(Caller caller, ResourceTemplate template) {
    requireNonNull(caller, "caller");
    return caller.permits(
        state.resources().scopes().getOrDefault(template.uriTemplate(), Set.of()));
  }

  /**
   * Suggests values for a variable of a templated resource file, from its {@code variables:}
   * {@code enum} (else {@code examples}): those starting with {@code value}, ignoring case; a list
   * keyed by another variable ({@code dependsOn}) is chosen by that variable's value in
   * {@code context}. From memory: it never blocks.
   */
  @Override
  public Completion complete(
      ResourceTemplate template, String variable, String value, Map<String, String> context) {
    requireNonNull(template, "template");
    return LibraryResources.complete(state.resources(), template, variable, value, context);
  }

  /**
   * Tells {@code listener} about resource changes found while {@link #watch() watching}; close the
   * handle to stop.
   */
  @Override
  public AutoCloseable onChange(Listener listener) {
    requireNonNull(listener, "listener");
    return resources.listen(listener);
  }

  /**
   * Starts hot reload of a folder source: changed files are re-read after a short quiet period; the
   * catalog is updated in one atomic change, a changed resource (or attached file) is announced
   * with {@link Listener#updated}, an added or removed one with {@link Listener#listChanged}, as a
   * snapshot's replacements always are (for a snapshot source this does nothing more). Calling it
   * again does nothing.
   *
   * @throws IOException if the folders cannot be watched
   */
  public void watch() throws IOException {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("Library.watch: the library is closed");
      }
      if (watcher == null) {
        Map<Path, FolderWalker.Found> seen = new HashMap<>();
        watcher = source.watch(this::reloadWatched, f -> seen.put(f.file(), f));
        // Whatever changed between the load and now raised no event: compare what registration
        // walked past.
        Set<Path> missed = new HashSet<>(prompts.changedSince(seen));
        missed.addAll(resourceIndex.changedSince(seen));
        missed.addAll(folders.changedSince(seen));
        missed.addAll(skillIndex.changedSince(seen));
        if (!missed.isEmpty()) {
          reload(missed);
        }
      }
    }
  }

  /** A watcher's round: whatever it meets is reported, and the next change is reloaded as usual. */
  private void reloadWatched(Set<Path> changed) {
    try {
      reload(changed);
      watching.succeeded();
    } catch (RuntimeException | Error e) {
      watching.failed(e);
    }
  }

  /**
   * Why hot reload of a folder source is not following the folders now (one line: its last round
   * failed, and what it read is not served), or null while it is, or when nothing is watched. For
   * the serving side's readiness; a library fed from elsewhere has its feed's own.
   */
  public @Nullable String feedProblem() {
    return watching.problem();
  }

  private void reload(Set<Path> changed) {
    State before;
    State after;
    Map<String, @Nullable PromptDefinition> updates;
    synchronized (lock) {
      before = state;
      Listing listing = new Listing(source);
      long catalogVersion = catalog.version();
      Reload round = new Reload(changed, prompts::rootOf, listing);
      for (Index index : indexes) {
        index.reload(round);
      }
      updates = round.updates();
      ResourceIndex.Snapshot snapshot = resourceIndex.snapshot(prompts.attaching());
      SkillIndex.Snapshot skills = skillIndex.snapshot(folders);
      catalog.update(editor -> {
        updates.forEach((name, definition) -> {
          if (definition == null) {
            editor.remove(name);
          } else {
            editor.put(definition.withSplit(splits.get(name)));
          }
        });
        skillPrompts.sync(editor, skills.skills(), options.skillPrompts(), updates.keySet());
      });
      Map<String, SkillFolder> skillsServed = skillPrompts.served();
      updates.keySet().forEach(name -> versions.note(name, prompts, skillsServed));
      skillsServed.keySet().forEach(name -> versions.note(name, prompts, skillsServed));
      boolean attachedChanged = snapshot.attachments().values().stream()
          .anyMatch(a -> ResourceIndex.touched(a.file(), changed));
      boolean served = catalog.version() != catalogVersion
          || attachedChanged
          || LibraryResources.differ(before.resources(), snapshot)
          || !before.skills().skills().equals(skills.skills());
      after = new State(served ? before.version() + 1 : before.version(), snapshot, skills);
      state = after;
      // An error means that file (or this version of it) is not served: ERROR, which reaches
      // clients as a notifications/message at level error.
      for (Diagnostic d : prompts.lastRefreshDiagnostics()) {
        LOG.log(d.isError() ? Level.ERROR : Level.DEBUG, d.format());
      }
      for (Diagnostic d : prompts.lastRefreshKept()) {
        LOG.log(Level.INFO, d.format());
      }
    }
    LOG.log(Level.DEBUG, () -> "reloaded " + changed + ": " + updates.keySet());
    resources.announce(before.resources(), after.resources(), changed);
    announceSkills(before.skills(), after.skills());
  }

  /** Tells resource listeners and skill listeners of a change of skills, when there was one. */
  private void announceSkills(SkillIndex.Snapshot before, SkillIndex.Snapshot after) {
    if (!before.skills().equals(after.skills())) {
      resources.announceSkills(LibrarySkills.change(before.skills(), after.skills()));
      skillListeners.forEach(Runnable::run);
    }
  }

  /**
   * Serves each prompt named in {@code next} as its A/B split from now on (see
   * {@link PromptSplit}), and every other prompt as itself: the catalog changes at once, in one
   * update, and keeps the splits across reloads. A name no prompt has is kept for when one appears.
   * Who may see a split prompt stays the prompt's own scopes.
   */
  public void split(Map<String, PromptSplit> next) {
    requireNonNull(next, "next");
    synchronized (lock) {
      Map<String, PromptSplit> before = splits;
      splits = Map.copyOf(next);
      Set<String> names = new HashSet<>(before.keySet());
      names.addAll(splits.keySet());
      catalog.update(editor -> names.forEach(name -> catalog
          .get(name)
          .filter(d -> !skillPrompts.served().containsKey(name))
          .ifPresent(d -> editor.put(d.withSplit(splits.get(name))))));
    }
  }

  /**
   * The version of the prompt served as {@code name}, for usage counts: the first 12 hex digits of
   * the SHA-256 of the file it is served from (a skill's {@code SKILL.md}), the same for the same
   * bytes whatever the source; empty when no prompt has that name. Never waits for a reload; a
   * folder's file is read once after each change.
   */
  public Optional<String> promptVersion(String name) {
    return versions.of(name);
  }

  /**
   * Stops watching and waits for the on-disk index to be written; what is served keeps its last
   * state.
   */
  @Override
  public void close() {
    AutoCloseable w;
    Thread writer;
    synchronized (lock) {
      closed = true;
      w = watcher;
      watcher = null;
      writer = indexWriter;
      indexWriter = null;
    }
    if (writer != null) {
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (w != null) {
      try {
        w.close();
      } catch (Exception e) {
        LOG.log(Level.DEBUG, "closing the watcher: " + e.getMessage());
      }
    }
  }
}
