package io.promptd.library;

import io.promptd.library.parse.AttachmentRefs;
import io.promptd.library.parse.FileKind;
import io.promptd.library.parse.ParseException;
import io.promptd.library.parse.Problems;
import io.promptd.library.parse.ResourceFile;
import io.promptd.library.parse.ResourceParser;
import io.promptd.library.parse.Root;
import io.promptd.library.parse.SafeFiles;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceTemplate;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
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
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ResourceLibrary} knows about each file: the parsed resource files (with the last good version of each)
 * and the attachments each native prompt file refers to. Not thread-safe; the library serializes access and publishes
 * {@link Snapshot}s.
 */
final class ResourceIndex {
  private final List<Root> roots;
  private final LibraryOptions options;
  private final Map<Path, ResourceEntry> resourceFiles = new HashMap<>();
  private final Map<Path, PromptRefs> promptFiles = new HashMap<>();

  /**
   * A resource file: its last good parse (null when it never parsed), its current problems, and the other files the
   * last attempt read or tried to read.
   */
  private record ResourceEntry(Root root, Path file, @Nullable ResourceFile good, List<Diagnostic> problems,
      Set<Path> dependencies) {}

  /** A native prompt file and the library files it attaches. */
  private record PromptRefs(Root root, Path file, Set<Path> attachments) {}

  /**
   * A library file served because a prompt attaches it.
   *
   * @param root the root it is under
   * @param file the file
   * @param resource what {@code resources/list} shows
   */
  record Attachment(Root root, Path file, Resource resource) {}

  /**
   * Everything served at one moment, immutable.
   *
   * @param resources the listing, sorted by URI
   * @param templates the template listing, sorted by URI template
   * @param fixed resources read at load time, by URI
   * @param templated the templates, in listing order
   * @param attachments attached library files, by URI
   * @param diagnostics problems, sorted by file and line
   */
  record Snapshot(List<Resource> resources, List<ResourceTemplate> templates, Map<String, ResourceFile.Fixed> fixed,
      List<ResourceFile.Templated> templated, Map<String, Attachment> attachments, List<Diagnostic> diagnostics) {
    static final Snapshot EMPTY = new Snapshot(List.of(), List.of(), Map.of(), List.of(), Map.of(), List.of());
  }

  ResourceIndex(List<Root> roots, LibraryOptions options) {
    this.roots = List.copyOf(roots);
    this.options = options;
  }

  /** Reads every root from scratch, the files in parallel. */
  void loadAll() throws IOException {
    resourceFiles.clear();
    promptFiles.clear();
    List<Visited> found = new ArrayList<>();
    for (Root root : roots) {
      walk(root, root.path(), file -> found.add(new Visited(root, file, null, null)));
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(options.parallelism())) {
      List<Future<Visited>> futures = new ArrayList<>(found.size());
      for (Visited f : found) {
        futures.add(pool.submit(() -> read(f.root(), f.file())));
      }
      // Apply only once every read is done: reads look up the previous entry, so the maps must not change meanwhile.
      List<Visited> results = new ArrayList<>(futures.size());
      for (Future<Visited> future : futures) {
        results.add(future.get());
      }
      results.forEach(this::apply);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while loading resource files", e);
    } catch (ExecutionException e) {
      throw new IOException("failed to load resource files", e.getCause());
    }
  }

  /** What reading one file found: a resource file, a prompt's attachments, or neither (both null). */
  private record Visited(Root root, Path file, @Nullable ResourceEntry resource, @Nullable PromptRefs prompt) {}

  /**
   * Re-reads what {@code changed} touches: files, folders (rescanned), and resource files whose {@code file:} target
   * or partials are among them.
   */
  void refresh(Set<Path> changed) throws IOException {
    for (Path path : changed) {
      Root root = rootOf(path);
      if (root == null) {
        continue;
      }
      forgetMissingUnder(path);
      if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        walk(root, path, file -> visit(root, file));
      } else {
        visit(root, path);
      }
    }
    for (ResourceEntry entry : List.copyOf(resourceFiles.values())) {
      if (!changed.contains(entry.file()) && entry.dependencies().stream().anyMatch(d -> touched(d, changed))) {
        visit(entry.root(), entry.file());
      }
    }
  }

  /**
   * Whether {@code file} is among {@code changed} or under a changed folder: a folder created with its files already
   * in it (or renamed into place) is reported as the folder alone.
   */
  static boolean touched(Path file, Set<Path> changed) {
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

  /** Builds what is served now: first root, then first path wins a URI claimed twice. */
  Snapshot snapshot() {
    List<Diagnostic> diagnostics = new ArrayList<>();
    Map<String, ResourceFile.Fixed> fixed = new LinkedHashMap<>();
    Map<String, ResourceFile.Templated> templated = new LinkedHashMap<>();
    Map<String, Path> owners = new HashMap<>();
    for (ResourceEntry entry : sorted(resourceFiles.values(), ResourceEntry::root, ResourceEntry::file)) {
      diagnostics.addAll(entry.problems());
      ResourceFile good = entry.good();
      if (good == null) {
        continue;
      }
      Path owner = owners.putIfAbsent(good.key(), good.file());
      if (owner != null) {
        diagnostics.add(Diagnostic.warning(good.file(), good.line(), "'" + good.key() + "' is already served from "
            + owner + "; this file is ignored"));
        continue;
      }
      switch (good) {
        case ResourceFile.Fixed f -> fixed.put(f.key(), f);
        case ResourceFile.Templated t -> templated.put(t.key(), t);
      }
    }
    Map<String, Attachment> attachments = new LinkedHashMap<>();
    for (PromptRefs refs : sorted(promptFiles.values(), PromptRefs::root, PromptRefs::file)) {
      for (Path file : refs.attachments()) {
        String uri = AttachmentRefs.uri(refs.root(), file);
        if (!fixed.containsKey(uri) && !attachments.containsKey(uri)
            && AttachmentRefs.servable(refs.root(), file)) {
          String name = String.valueOf(file.getFileName());
          Resource resource = new Resource(uri, name, null, "Attached by " + refs.root().relative(refs.file()),
              AttachmentRefs.mimeType(file), null, null, List.of(), null);
          attachments.put(uri, new Attachment(refs.root(), file, resource));
        }
      }
    }
    List<Resource> resources = new ArrayList<>(fixed.size() + attachments.size());
    fixed.values().forEach(f -> resources.add(f.resource()));
    attachments.values().forEach(a -> resources.add(a.resource()));
    resources.sort((a, b) -> a.uri().compareTo(b.uri()));
    List<ResourceFile.Templated> templates = new ArrayList<>(templated.values());
    templates.sort((a, b) -> a.key().compareTo(b.key()));
    diagnostics.sort(Diagnostic.ORDER);
    return new Snapshot(List.copyOf(resources), templates.stream().map(ResourceFile.Templated::template).toList(),
        Map.copyOf(fixed), List.copyOf(templates), Map.copyOf(attachments), List.copyOf(diagnostics));
  }

  private static <T> List<T> sorted(Collection<T> entries, java.util.function.Function<T, Root> root,
      java.util.function.Function<T, Path> file) {
    List<T> list = new ArrayList<>(entries);
    list.sort((a, b) -> {
      int byRoot = Integer.compare(root.apply(a).index(), root.apply(b).index());
      return byRoot != 0 ? byRoot
          : root.apply(a).relative(file.apply(a)).compareTo(root.apply(b).relative(file.apply(b)));
    });
    return list;
  }

  /** Gives {@code found} every file under {@code start} in the folders the scanner visits and this root owns. */
  private void walk(Root root, Path start, Consumer<Path> found) throws IOException {
    if (!Files.isDirectory(start) || !Scanner.wanted(root, start)) {
      return;
    }
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        return Scanner.wanted(root, dir) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (!attrs.isDirectory() && root.equals(rootOf(file))) {
          found.accept(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Reads one file again, or forgets it when it is gone or no longer a resource or prompt file. */
  private void visit(Root root, Path file) {
    apply(read(root, file));
  }

  /** Reads one file without changing the index, so that many can be read at once. */
  private Visited read(Root root, Path file) {
    if (!Files.isRegularFile(file)) {
      return new Visited(root, file, null, null);
    }
    FileKind.Match match = FileKind.classify(root, file);
    if (match == null && ResourceParser.isResourceFile(file)) {
      return new Visited(root, file, parse(root, file), null);
    }
    if (match != null && match.kind() == FileKind.NATIVE) {
      Set<Path> attachments = scanPrompt(root, file);
      // Most prompts attach nothing; only those that do are remembered, so big libraries stay cheap to reload.
      return new Visited(root, file, null, attachments.isEmpty() ? null : new PromptRefs(root, file, attachments));
    }
    return new Visited(root, file, null, null);
  }

  private void apply(Visited visited) {
    Path file = visited.file();
    if (visited.resource() != null) {
      resourceFiles.put(file, visited.resource());
    } else {
      resourceFiles.remove(file);
    }
    if (visited.prompt() != null) {
      promptFiles.put(file, visited.prompt());
    } else {
      promptFiles.remove(file);
    }
  }

  private ResourceEntry parse(Root root, Path file) {
    Problems problems = new Problems(file);
    Set<Path> dependencies = new HashSet<>();
    try {
      String text = SafeFiles.decodeUtf8(SafeFiles.read(root, file, options.maxPromptBytes(), 0, "resource file"));
      ResourceFile parsed = ResourceParser.parse(root, file, text, options, problems, dependencies);
      return new ResourceEntry(root, file, parsed, problems.all(), Set.copyOf(dependencies));
    } catch (ParseException e) {
      problems.error(e);
      ResourceEntry previous = resourceFiles.get(file);
      return new ResourceEntry(root, file, previous == null ? null : previous.good(), problems.all(),
          Set.copyOf(dependencies));
    }
  }

  private Set<Path> scanPrompt(Root root, Path file) {
    try {
      String text = SafeFiles.decodeUtf8(SafeFiles.read(root, file, options.maxPromptBytes(), 0, "prompt"));
      return AttachmentRefs.scan(root, file, text);
    } catch (ParseException e) {
      // The prompt library reports unreadable prompt files; keep what this one attached before.
      PromptRefs previous = promptFiles.get(file);
      return previous == null ? Set.of() : previous.attachments();
    }
  }

  /** Forgets files at or under {@code path} that no longer exist: a deleted or renamed folder reports itself only. */
  private void forgetMissingUnder(Path path) {
    List<Path> gone = new ArrayList<>();
    Set<Path> known = new HashSet<>(resourceFiles.keySet());
    known.addAll(promptFiles.keySet());
    for (Path file : known) {
      if (file.startsWith(path) && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        gone.add(file);
      }
    }
    gone.forEach(f -> {
      resourceFiles.remove(f);
      promptFiles.remove(f);
    });
  }

  /** The first root that holds {@code path} (or is it), or null. */
  private @Nullable Root rootOf(Path path) {
    Path normalized = path.normalize();
    for (Root root : roots) {
      if (normalized.equals(root.path()) || root.contains(normalized)) {
        return root;
      }
    }
    return null;
  }
}
