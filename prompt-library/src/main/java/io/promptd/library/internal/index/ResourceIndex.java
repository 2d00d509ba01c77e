package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.internal.source.Listing;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.AttachmentRefs;
import io.promptd.library.parse.ResourceFile;
import io.promptd.library.parse.ResourceParser;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The library's resources: the parsed {@code NAME.resource.md} files (with the last good version of
 * each), and the files prompts attach, which come from the prompt parse
 * ({@link LibraryIndex#attaching()}), never from reading the prompt files again. Not thread-safe;
 * the library serializes access and publishes {@link Snapshot}s.
 */
public final class ResourceIndex implements Index {
  private final FileSource source;
  private final LibraryOptions options;
  private final FolderDefaults folders;
  private final Map<Path, ResourceEntry> resourceFiles = new HashMap<>();

  /**
   * A resource file: its last good parse (null when it never parsed), its current problems, the
   * other files the last attempt read or tried to read, and its stamp when read.
   */
  private record ResourceEntry(
      Root root,
      Path file,
      @Nullable ResourceFile good,
      List<Diagnostic> problems,
      Set<Path> dependencies,
      @Nullable Stamp stamp) {}

  /**
   * A library file served because a prompt attaches it.
   *
   * @param root the root it is under
   * @param file the file
   * @param resource what {@code resources/list} shows
   * @param anyOf the scopes each served prompt that attaches it requires: a caller holding any one
   *     set may see it
   */
  public record Attachment(Root root, Path file, Resource resource, List<Set<String>> anyOf) {}

  /**
   * Everything served at one moment, immutable.
   *
   * @param resources the listing, sorted by URI
   * @param templates the template listing, sorted by URI template
   * @param fixed resources read at load time, by URI
   * @param templated the templates, in listing order
   * @param attachments attached library files, by URI
   * @param diagnostics problems, sorted by file and line
   * @param scopes the scopes each resource file requires, by its key (URI or URI template)
   */
  public record Snapshot(
      List<Resource> resources,
      List<ResourceTemplate> templates,
      Map<String, ResourceFile.Fixed> fixed,
      List<ResourceFile.Templated> templated,
      Map<String, Attachment> attachments,
      List<Diagnostic> diagnostics,
      Map<String, Set<String>> scopes) {
    public static final Snapshot EMPTY =
        new Snapshot(List.of(), List.of(), Map.of(), List.of(), Map.of(), List.of(), Map.of());
  }

  public ResourceIndex(FileSource source, LibraryOptions options, FolderDefaults folders) {
    this.source = source;
    this.options = options;
    this.folders = folders;
  }

  /** Reads the resource files the load's listing found, on {@code pool}. */
  @Override
  public void loadAll(List<FolderWalker.Found> found, ExecutorService pool) throws IOException {
    try {
      List<Future<ResourceEntry>> futures = new ArrayList<>(found.size());
      for (FolderWalker.Found f : found) {
        futures.add(pool.submit(() -> parse(f.root(), f.file(), f.stamp())));
      }
      for (Future<ResourceEntry> future : futures) {
        ResourceEntry entry = future.get();
        resourceFiles.putIfAbsent(entry.file(), entry);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while loading resource files", e);
    } catch (ExecutionException e) {
      throw new IOException("failed to load resource files", e.getCause());
    }
  }

  /**
   * Re-reads the resource files {@code changed} touches: files, folders (listed through
   * {@code listing}), and resource files whose {@code file:} target or partials are among them.
   */
  public void refresh(Set<Path> changed, Function<Path, @Nullable Root> rootOf, Listing listing) {
    for (Path path : changed) {
      Root root = rootOf.apply(path);
      if (root == null) {
        continue;
      }
      forgetMissingUnder(path);
      if (source.isFolder(path)) {
        for (FolderWalker.Found f : listing.under(root, path)) {
          if (f.role() == FileRole.RESOURCE) {
            visit(root, f.file());
          }
        }
      } else {
        visit(root, path);
      }
    }
    for (ResourceEntry entry : List.copyOf(resourceFiles.values())) {
      if (!changed.contains(entry.file())
          && entry.dependencies().stream().anyMatch(d -> touched(d, changed))) {
        visit(entry.root(), entry.file());
      }
    }
  }

  /**
   * Whether a templated resource file or a file it depends on is at or under a path in
   * {@code changed}.
   */
  public static boolean touched(ResourceFile.Templated t, Set<Path> changed) {
    return touched(t.file(), changed)
        || t.dependencies().stream().anyMatch(d -> touched(d, changed));
  }

  /**
   * Whether {@code file} is among {@code changed} or under a changed folder: a folder created with
   * its files already in it (or renamed into place) is reported as the folder alone.
   */
  public static boolean touched(Path file, Set<Path> changed) {
    if (changed.contains(file)) {
      return true;
    }
    for (Path c : changed) {
      if (file.startsWith(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Builds what is served now from the resource files and the prompts that attach files: first
   * root, then first path wins a URI claimed twice.
   */
  public Snapshot snapshot(Collection<LibraryIndex.Entry> attaching) {
    List<Diagnostic> diagnostics = new ArrayList<>();
    Map<String, ResourceFile.Fixed> fixed = new LinkedHashMap<>();
    Map<String, ResourceFile.Templated> templated = new LinkedHashMap<>();
    Map<String, Path> owners = new HashMap<>();
    Map<String, Set<String>> scopes = new HashMap<>();
    for (ResourceEntry entry :
        sorted(resourceFiles.values(), ResourceEntry::root, ResourceEntry::file)) {
      diagnostics.addAll(entry.problems());
      ResourceFile good = entry.good();
      if (good == null) {
        continue;
      }
      Path owner = owners.putIfAbsent(good.key(), good.file());
      if (owner != null) {
        diagnostics.add(Diagnostic.warning(
            good.file(),
            good.line(),
            "'" + good.key() + "' is already served from " + owner + "; this file is ignored"));
        continue;
      }
      switch (good) {
        case ResourceFile.Fixed f -> fixed.put(f.key(), f);
        case ResourceFile.Templated t -> templated.put(t.key(), t);
      }
      scopes.put(good.key(), folders.effective(entry.root(), entry.file(), good.scopes()));
    }
    Map<String, Attachment> attachments = new LinkedHashMap<>();
    Map<String, List<Set<String>>> anyOf = new HashMap<>();
    for (LibraryIndex.Entry refs :
        sorted(attaching, LibraryIndex.Entry::root, LibraryIndex.Entry::file)) {
      // A file attached only by prompts that are not served (never parsed) is visible to
      // unrestricted callers only.
      PromptDefinition by = refs.definition();
      for (Path file : refs.attached()) {
        String uri = AttachmentRefs.uri(refs.root(), file);
        if (!fixed.containsKey(uri)
            && !attachments.containsKey(uri)
            && source.servable(refs.root(), file)) {
          String name = String.valueOf(file.getFileName());
          Resource resource = new Resource(
              uri,
              name,
              null,
              "Attached by " + refs.root().relative(refs.file()),
              AttachmentRefs.mimeType(file),
              null,
              null,
              List.of(),
              null);
          attachments.put(uri, new Attachment(refs.root(), file, resource, List.of()));
        }
        if (by != null && attachments.containsKey(uri)) {
          anyOf.computeIfAbsent(uri, u -> new ArrayList<>()).add(by.requiredScopes());
        }
      }
    }
    anyOf.forEach((uri, sets) -> attachments.computeIfPresent(
        uri, (u, a) -> new Attachment(a.root(), a.file(), a.resource(), List.copyOf(sets))));
    List<Resource> resources = new ArrayList<>(fixed.size() + attachments.size());
    fixed.values().forEach(f -> resources.add(f.resource()));
    attachments.values().forEach(a -> resources.add(a.resource()));
    resources.sort((a, b) -> a.uri().compareTo(b.uri()));
    List<ResourceFile.Templated> templates = new ArrayList<>(templated.values());
    templates.sort((a, b) -> a.key().compareTo(b.key()));
    diagnostics.sort(Problems.ORDER);
    return new Snapshot(
        List.copyOf(resources),
        templates.stream().map(ResourceFile.Templated::template).toList(),
        Map.copyOf(fixed),
        List.copyOf(templates),
        Map.copyOf(attachments),
        List.copyOf(diagnostics),
        Map.copyOf(scopes));
  }

  private static <T> List<T> sorted(
      Collection<T> entries, Function<T, Root> root, Function<T, Path> file) {
    List<T> list = new ArrayList<>(entries);
    list.sort((a, b) -> {
      int byRoot = Integer.compare(root.apply(a).index(), root.apply(b).index());
      return byRoot != 0
          ? byRoot
          : root.apply(a).relative(file.apply(a)).compareTo(root.apply(b).relative(file.apply(b)));
    });
    return list;
  }

  /** Reads one file again, or forgets it when it is gone or no longer a resource file. */
  private void visit(Root root, Path file) {
    Stamp stamp = source.stamp(file);
    if (stamp == null
        || FileRole.of(FileKind.classify(root, file), file) != FileRole.RESOURCE
        || source.isFolder(file)) {
      resourceFiles.remove(file);
      return;
    }
    resourceFiles.put(file, parse(root, file, stamp));
  }

  private ResourceEntry parse(Root root, Path file, @Nullable Stamp stamp) {
    Problems problems = new Problems(file);
    Set<Path> dependencies = new HashSet<>();
    try {
      String text = SafeFiles.decodeUtf8(
          source.read(root, file, options.maxPromptBytes(), 0, "resource file"));
      ResourceFile parsed =
          ResourceParser.parse(root, file, text, options, problems, dependencies, source);
      return new ResourceEntry(root, file, parsed, problems.all(), Set.copyOf(dependencies), stamp);
    } catch (ParseException e) {
      problems.error(e);
      ResourceEntry previous = resourceFiles.get(file);
      return new ResourceEntry(
          root,
          file,
          previous == null ? null : previous.good(),
          problems.all(),
          Set.copyOf(dependencies),
          stamp);
    }
  }

  /**
   * Forgets files at or under {@code path} that no longer exist: a deleted or renamed folder
   * reports itself only.
   */
  private void forgetMissingUnder(Path path) {
    resourceFiles.keySet().removeIf(file -> file.startsWith(path) && !source.present(file));
  }

  /**
   * The resource files that appeared, vanished or changed size or modification time compared with
   * {@code now}.
   */
  @Override
  public Set<Path> changedSince(Map<Path, FolderWalker.Found> now) {
    Set<Path> changed = new HashSet<>();
    now.forEach((file, found) -> {
      if (found.role() != FileRole.RESOURCE) {
        return;
      }
      ResourceEntry entry = resourceFiles.get(file);
      Stamp then = entry == null ? null : entry.stamp();
      if (then == null
          || then.size() != found.stamp().size()
          || then.modified() != found.stamp().modified()) {
        changed.add(file);
      }
    });
    for (Path known : resourceFiles.keySet()) {
      if (!now.containsKey(known)) {
        changed.add(known);
      }
    }
    return changed;
  }

  @Override
  public FileRole role() {
    return FileRole.RESOURCE;
  }

  @Override
  public void reload(Reload reload) {
    refresh(reload.changed(), reload.rootOf(), reload.listing());
  }
}
