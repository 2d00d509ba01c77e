package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.AttachmentRefs;
import io.promptd.library.parse.ParseException;
import io.promptd.library.parse.ResourceFile;
import io.promptd.library.parse.Root;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.ResourceProvider;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The resources of folders of prompt files: {@code NAME.resource.md} files (one resource each, or a URI template) and
 * the files prompts attach, served as {@code promptd:///PATH}. The format is described in {@code docs/resources.md}.
 *
 * <p>A file with errors is not served (or, during hot reload, its last good version stays served) and its problems are
 * in {@link #diagnostics()}. When two files claim one URI, the first root given wins, then the path that sorts first.
 *
 * <pre>{@code
 * try (ResourceLibrary resources = ResourceLibrary.load(List.of(Path.of("prompts")), LibraryOptions.defaults())) {
 *   resources.watch();
 *   McpServer server = McpServer.builder().prompts(prompts.catalog()).resources(resources).build();
 *   ...
 * }
 * }</pre>
 */
public final class ResourceLibrary implements ResourceProvider, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final List<Root> roots;
  private final LibraryOptions options;
  private final ResourceIndex index;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private volatile ResourceIndex.Snapshot snapshot = ResourceIndex.Snapshot.EMPTY;
  private @Nullable Watcher watcher;
  private boolean closed;

  private ResourceLibrary(List<Root> roots, LibraryOptions options) {
    this.roots = roots;
    this.options = options;
    this.index = new ResourceIndex(roots, options);
  }

  /**
   * Reads every resource file and prompt attachment under {@code roots}.
   *
   * @param roots the folders to serve, at least one; earlier ones win URI clashes
   * @param options limits and timings
   * @throws IOException if a root is not a readable folder
   */
  public static ResourceLibrary load(List<Path> roots, LibraryOptions options) throws IOException {
    requireNonNull(options, "options");
    List<Root> opened = Root.openAll(roots, "ResourceLibrary.load");
    ResourceLibrary library = new ResourceLibrary(opened, options);
    long start = System.nanoTime();
    synchronized (library.lock) {
      library.index.loadAll();
      library.snapshot = library.index.snapshot();
    }
    ResourceIndex.Snapshot loaded = library.snapshot;
    long millis = (System.nanoTime() - start) / 1_000_000;
    LOG.log(Level.INFO, () -> "loaded " + loaded.resources().size() + " resource(s) and " + loaded.templates().size()
        + " template(s) under " + roots + " in " + millis + " ms");
    for (Diagnostic d : loaded.diagnostics()) {
      LOG.log(d.isError() ? Level.WARNING : Level.INFO, d.format());
    }
    return library;
  }

  /** The problems of the resource files as last read, sorted by file and line. */
  public List<Diagnostic> diagnostics() {
    return snapshot.diagnostics();
  }

  /** The resources, sorted by URI. */
  @Override
  public List<Resource> resources() {
    return snapshot.resources();
  }

  /** The resource templates, sorted by URI template. */
  @Override
  public List<ResourceTemplate> templates() {
    return snapshot.templates();
  }

  /**
   * Reads a resource: a fixed one from memory, an attachment from its file (inside the root only), or the first
   * template that matches {@code uri}, rendered with the values taken from it.
   *
   * @throws McpException when an attachment cannot be read now (deleted, grown over the limit, not UTF-8)
   */
  @Override
  public Optional<List<ResourceContents>> read(String uri) {
    requireNonNull(uri, "uri");
    ResourceIndex.Snapshot s = snapshot;
    Optional<List<ResourceContents>> direct = readDirect(s, uri);
    if (direct.isPresent()) {
      return direct;
    }
    for (ResourceFile.Templated t : s.templated()) {
      Optional<ResourceContents> contents = t.read(uri);
      if (contents.isPresent()) {
        return Optional.of(List.of(contents.get()));
      }
    }
    return Optional.empty();
  }

  private Optional<List<ResourceContents>> readDirect(ResourceIndex.Snapshot s, String uri) {
    ResourceFile.Fixed fixed = s.fixed().get(uri);
    if (fixed != null) {
      return Optional.of(List.of(fixed.contents()));
    }
    ResourceIndex.Attachment attachment = s.attachments().get(AttachmentRefs.canonical(uri));
    if (attachment == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(List.of(
          AttachmentRefs.read(attachment.root(), attachment.file(), attachment.resource().uri(),
              options.maxAttachmentBytes())));
    } catch (ParseException e) {
      throw McpException.internal("resource '" + uri + "': " + e.getMessage());
    }
  }

  /** Tells {@code listener} about changes found while {@link #watch() watching}; close the handle to stop. */
  @Override
  public AutoCloseable onChange(Listener listener) {
    requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * Starts hot reload: a changed resource (or attached file) is announced with {@link Listener#updated}, an added or
   * removed one with {@link Listener#listChanged}. Calling it again does nothing.
   *
   * @throws IOException if the folders cannot be watched
   */
  public void watch() throws IOException {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("ResourceLibrary.watch: the library is closed");
      }
      if (watcher == null) {
        watcher = Watcher.start(roots, options.debounce(), this::reload);
      }
    }
  }

  private void reload(Set<Path> changed) {
    ResourceIndex.Snapshot before;
    ResourceIndex.Snapshot after;
    synchronized (lock) {
      try {
        index.refresh(changed);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "resource library reload failed: " + e.getMessage());
        return;
      }
      before = snapshot;
      after = index.snapshot();
      snapshot = after;
    }
    for (Diagnostic d : after.diagnostics()) {
      if (d.isError() && changed.contains(d.file())) {
        LOG.log(Level.WARNING, d.format());
      }
    }
    announce(before, after, changed);
  }

  /** Notifies listeners of what differs between two snapshots. */
  private void announce(ResourceIndex.Snapshot before, ResourceIndex.Snapshot after, Set<Path> changed) {
    boolean listChanged = !before.resources().equals(after.resources())
        || !before.templates().equals(after.templates())
        || after.templated().stream().anyMatch(t -> ResourceIndex.touched(t.file(), changed)
            || t.dependencies().stream().anyMatch(d -> ResourceIndex.touched(d, changed)));
    Set<String> updated = new LinkedHashSet<>();
    after.fixed().forEach((uri, now) -> {
      ResourceFile.Fixed then = before.fixed().get(uri);
      if (then != null && !then.contents().equals(now.contents())) {
        updated.add(uri);
      }
    });
    after.attachments().forEach((uri, now) -> {
      if (before.attachments().containsKey(uri) && ResourceIndex.touched(now.file(), changed)) {
        updated.add(uri);
      }
    });
    if (!listChanged && updated.isEmpty()) {
      return;
    }
    LOG.log(Level.DEBUG, () -> "resources reloaded: list changed " + listChanged + ", updated " + updated);
    for (Listener listener : listeners) {
      try {
        if (listChanged) {
          listener.listChanged();
        }
        updated.forEach(listener::updated);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a resource listener failed", e);
      }
    }
  }

  /** Stops watching; the resources keep their last state. */
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
