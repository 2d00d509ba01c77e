package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.Root;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Folders of prompt files served as a {@link PromptCatalog}.
 *
 * <p>Reads {@code NAME.prompt.md} files (YAML front matter and a Mustache body), Claude Code commands under
 * {@code .claude/commands/} and VS Code prompt files under {@code .github/prompts/}. A file with errors is not served
 * (or, during hot reload, its last good version stays served) and its problems are in {@link #diagnostics()}. When
 * two files claim one name, the first root given wins, then the file whose path sorts first.
 *
 * <pre>{@code
 * try (PromptLibrary library = PromptLibrary.load(List.of(Path.of("prompts")), LibraryOptions.defaults())) {
 *   library.watch();
 *   McpServer server = McpServer.builder().prompts(library.catalog()).build();
 *   ...
 * }
 * }</pre>
 */
public final class PromptLibrary implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final List<Root> roots;
  private final LibraryOptions options;
  private final LibraryIndex index;
  private final PromptCatalog catalog = PromptCatalog.create();
  private final Object lock = new Object();
  private @Nullable Watcher watcher;
  private boolean closed;

  private PromptLibrary(List<Root> roots, LibraryOptions options) {
    this.roots = roots;
    this.options = options;
    this.index = new LibraryIndex(roots, options);
  }

  /**
   * Parses every prompt file under {@code roots} and fills {@link #catalog()}.
   *
   * @param roots the folders to serve, at least one; earlier ones win name clashes
   * @param options limits and timings
   * @throws IOException if a root is not a readable folder
   */
  public static PromptLibrary load(List<Path> roots, LibraryOptions options) throws IOException {
    PromptLibrary library = open(roots, options);
    List<Diagnostic> problems = library.diagnostics();
    // Concatenation, not String.format: the first Formatter call loads locale data, ~10 ms of a cold start.
    long errors = problems.stream().filter(Diagnostic::isError).count();
    LOG.log(Level.INFO, () -> "loaded " + library.catalog.size() + " prompts from " + library.index.fileCount()
        + " files under " + roots + " (" + errors + " errors, " + (problems.size() - errors) + " warnings)");
    for (Diagnostic d : problems) {
      LOG.log(d.isError() ? Level.WARNING : Level.INFO, d.format());
    }
    return library;
  }

  /** Loads without logging, for {@link Linter}, whose caller prints the diagnostics itself. */
  static PromptLibrary open(List<Path> roots, LibraryOptions options) throws IOException {
    requireNonNull(options, "options");
    List<Root> opened = Root.openAll(roots, "PromptLibrary.load");
    PromptLibrary library = new PromptLibrary(opened, options);
    synchronized (library.lock) {
      library.catalog.replaceAll(library.index.loadAll());
    }
    return library;
  }

  /** The prompts being served; it changes in place as files change once {@link #watch()} was called. */
  public PromptCatalog catalog() {
    return catalog;
  }

  /** The problems found by the last load or reload, sorted by file and line. */
  public List<Diagnostic> diagnostics() {
    synchronized (lock) {
      return List.copyOf(index.diagnostics(Severity.WARNING));
    }
  }

  /** For {@link Linter}: the same problems, with duplicate names counted as errors. */
  List<Diagnostic> lint() {
    synchronized (lock) {
      return List.copyOf(index.diagnostics(Severity.ERROR));
    }
  }

  /**
   * Starts hot reload: changed files are re-parsed after a short quiet period and the catalog is updated in one
   * atomic change. Calling it again does nothing.
   *
   * @throws IOException if the folders cannot be watched
   */
  public void watch() throws IOException {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("PromptLibrary.watch: the library is closed");
      }
      if (watcher == null) {
        Map<Path, Stamp> seen = new HashMap<>();
        watcher = Watcher.start(roots, options.debounce(), this::reload, f -> seen.put(f.file(), f.stamp()));
        // Whatever changed between the load and now raised no event: compare what registration walked past.
        Set<Path> missed = index.changedSince(seen);
        if (!missed.isEmpty()) {
          reload(missed);
        }
      }
    }
  }

  private void reload(Set<Path> changed) {
    Map<String, @Nullable PromptDefinition> updates;
    List<Diagnostic> problems;
    synchronized (lock) {
      try {
        updates = index.refresh(changed);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "prompt library reload failed: " + e.getMessage());
        return;
      }
      catalog.update(editor -> updates.forEach((name, definition) -> {
        if (definition == null) {
          editor.remove(name);
        } else {
          editor.put(definition);
        }
      }));
      problems = index.lastRefreshDiagnostics();
    }
    for (Diagnostic d : problems) {
      LOG.log(d.isError() ? Level.WARNING : Level.DEBUG, d.format());
    }
    LOG.log(Level.DEBUG, () -> "reloaded " + changed + ": " + updates.keySet());
  }

  /** Stops watching; the catalog keeps its last state. */
  @Override
  public void close() {
    Watcher w;
    synchronized (lock) {
      closed = true;
      w = watcher;
      watcher = null;
    }
    if (w != null) {
      w.close();
    }
  }
}
