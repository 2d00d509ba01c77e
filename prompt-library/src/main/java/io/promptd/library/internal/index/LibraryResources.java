package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.skills.LibrarySkills;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.parse.AttachmentRefs;
import io.promptd.library.parse.ResourceFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.spi.Caller;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/** Reads resources from a library snapshot and tells listeners what a reload changed. */
public final class LibraryResources {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final FileSource source;
  private final LibraryOptions options;
  private final List<ResourceProvider.Listener> listeners = new CopyOnWriteArrayList<>();

  public LibraryResources(FileSource source, LibraryOptions options) {
    this.source = source;
    this.options = options;
  }

  /**
   * Reads a resource: a fixed one from memory, an attachment from its source (inside the root
   * only), or the first template that matches {@code uri}, rendered with the values taken from it.
   */
  public Optional<List<ResourceContents>> read(ResourceIndex.Snapshot s, String uri) {
    ResourceFile.Fixed fixed = s.fixed().get(uri);
    if (fixed != null) {
      return Optional.of(List.of(fixed.contents()));
    }
    ResourceIndex.Attachment attachment = s.attachments().get(AttachmentRefs.canonical(uri));
    if (attachment != null) {
      try {
        return Optional.of(List.of(AttachmentRefs.read(
            attachment.root(),
            attachment.file(),
            attachment.resource().uri(),
            options.maxAttachmentBytes(),
            source)));
      } catch (ParseException e) {
        throw McpException.internal("resource '" + uri + "': " + e.getMessage());
      }
    }
    for (ResourceFile.Templated t : s.templated()) {
      Optional<ResourceContents> contents = t.read(uri);
      if (contents.isPresent()) {
        return Optional.of(List.of(contents.get()));
      }
    }
    return Optional.empty();
  }

  /** Adds a listener; closing the handle removes it. */
  public AutoCloseable listen(ResourceProvider.Listener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Whether two snapshots differ in what they list or serve, for the library's version. */
  public static boolean differ(ResourceIndex.Snapshot before, ResourceIndex.Snapshot after) {
    return !before.resources().equals(after.resources())
        || !before.templates().equals(after.templates())
        || !before.fixed().equals(after.fixed())
        || !before.templated().equals(after.templated())
        || accessDiffers(before, after);
  }

  /**
   * Whether who may see what changed: a folder default, a resource file's scopes, the prompts
   * attaching a file.
   */
  private static boolean accessDiffers(
      ResourceIndex.Snapshot before, ResourceIndex.Snapshot after) {
    if (!before.scopes().equals(after.scopes())) {
      return true;
    }
    for (var e : after.attachments().entrySet()) {
      ResourceIndex.Attachment then = before.attachments().get(e.getKey());
      if (then != null && !then.anyOf().equals(e.getValue().anyOf())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Notifies listeners that the skills' files changed: the list, for who may see them, and each
   * file updated.
   */
  public void announceSkills(LibrarySkills.Change change) {
    for (ResourceProvider.Listener listener : listeners) {
      try {
        listener.listChanged(change.scopes());
        change.updated().forEach(listener::updated);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a resource listener failed", e);
      }
    }
  }

  /** Notifies listeners of what differs between two snapshots. */
  public void announce(
      ResourceIndex.Snapshot before, ResourceIndex.Snapshot after, Set<Path> changed) {
    for (Diagnostic d : after.diagnostics()) {
      if (d.isError() && changed.contains(d.file())) {
        LOG.log(Level.ERROR, d.format());
      }
    }
    boolean listChanged = !before.resources().equals(after.resources())
        || !before.templates().equals(after.templates())
        || accessDiffers(before, after)
        || after.templated().stream().anyMatch(t -> ResourceIndex.touched(t, changed));
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
    LOG.log(
        Level.DEBUG,
        () -> "resources reloaded: list changed " + listChanged + ", updated " + updated);
    Set<Set<String>> scopes = listChanged ? listScopes(before, after, changed) : Set.of();
    for (ResourceProvider.Listener listener : listeners) {
      try {
        if (listChanged) {
          listener.listChanged(scopes);
        }
        updated.forEach(listener::updated);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a resource listener failed", e);
      }
    }
  }

  /**
   * The scopes of what two snapshots list differently (a resource, a template, who may see it, or a
   * templated file or its dependencies that {@code changed}), before and after: a resource file's
   * own (or its folder's), every served prompt's that attaches a file. Only callers who may see one
   * of them hear that the list changed.
   */
  static Set<Set<String>> listScopes(
      ResourceIndex.Snapshot before, ResourceIndex.Snapshot after, Set<Path> changed) {
    Map<String, Listed> then = Listed.all(before);
    Map<String, Listed> now = Listed.all(after);
    Set<String> touched = new HashSet<>();
    for (ResourceFile.Templated t : after.templated()) {
      if (ResourceIndex.touched(t, changed)) {
        touched.add(t.key()); // what it yields may differ though the template does not
      }
    }
    Set<String> keys = new HashSet<>(then.keySet());
    keys.addAll(now.keySet());
    Set<Set<String>> scopes = new HashSet<>();
    for (String key : keys) {
      Listed was = then.getOrDefault(key, Listed.NONE);
      Listed is = now.getOrDefault(key, Listed.NONE);
      if (!was.equals(is) || touched.contains(key)) {
        was.addScopes(scopes);
        is.addScopes(scopes);
      }
    }
    return Set.copyOf(scopes);
  }

  /** What a snapshot lists under one key (a URI or a URI template), and who may see it. */
  private record Listed(
      @Nullable Resource resource,
      @Nullable ResourceTemplate template,
      @Nullable Set<String> scopes,
      List<Set<String>> anyOf) {
    static final Listed NONE = new Listed(null, null, null, List.of());

    /** Everything {@code s} lists, by key. */
    static Map<String, Listed> all(ResourceIndex.Snapshot s) {
      Map<String, Resource> resources = new HashMap<>();
      s.resources().forEach(r -> resources.put(r.uri(), r));
      Map<String, ResourceTemplate> templates = new HashMap<>();
      s.templated().forEach(t -> templates.put(t.key(), t.template()));
      Set<String> keys = new HashSet<>(resources.keySet());
      keys.addAll(templates.keySet());
      keys.addAll(s.scopes().keySet());
      keys.addAll(s.attachments().keySet());
      Map<String, Listed> all = new HashMap<>();
      for (String key : keys) {
        ResourceIndex.Attachment attachment = s.attachments().get(key);
        all.put(
            key,
            new Listed(
                resources.get(key),
                templates.get(key),
                s.scopes().get(key),
                attachment == null ? List.of() : attachment.anyOf()));
      }
      return all;
    }

    /** Adds who may see this: the file's scopes, or those of each prompt that attaches it. */
    void addScopes(Set<Set<String>> into) {
      if (scopes != null) {
        into.add(scopes);
      }
      into.addAll(anyOf);
    }
  }

  /**
   * Whether {@code caller} may see the resource at {@code uri} in {@code s}: a resource file by its
   * scopes (its own, else its folder's default); an attached file when the caller may see any
   * served prompt that attaches it.
   */
  public static boolean visible(ResourceIndex.Snapshot s, Caller caller, String uri) {
    if (s.fixed().containsKey(uri)) {
      return caller.permits(s.scopes().getOrDefault(uri, Set.of()));
    }
    ResourceIndex.Attachment attachment = s.attachments().get(AttachmentRefs.canonical(uri));
    if (attachment != null) {
      return caller.unrestricted() || attachment.anyOf().stream().anyMatch(caller::permits);
    }
    for (ResourceFile.Templated t : s.templated()) {
      if (t.matches(uri)) {
        return caller.permits(s.scopes().getOrDefault(t.key(), Set.of()));
      }
    }
    return true; // nothing serves it: reading it finds nothing either way
  }

  /**
   * Suggestions for {@code variable} of the templated resource file behind {@code template} in
   * {@code s}.
   */
  public static Completion complete(
      ResourceIndex.Snapshot s,
      ResourceTemplate template,
      String variable,
      String value,
      Map<String, String> context) {
    for (ResourceFile.Templated t : s.templated()) {
      if (t.key().equals(template.uriTemplate())) {
        return t.complete(variable, value, context);
      }
    }
    return Completion.EMPTY;
  }
}
