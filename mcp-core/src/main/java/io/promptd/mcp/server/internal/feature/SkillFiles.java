package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.spi.Caller;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A server's resources with the files of a {@link SkillProvider} that serves them itself
 * ({@link SkillProvider#files()}): a URI the skill files list is theirs, to list, read and check;
 * every other URI, and the templates and completions, belong to the author's own provider. Built
 * once per server, so that every feature that reads resources (listing, reading, subscriptions,
 * embedded resources) sees the same set.
 */
public final class SkillFiles implements ResourceProvider {
  private final ResourceProvider own;
  private final ResourceProvider files;

  /** The URIs of one listing of the skill files, kept while the listing is the same list. */
  private record Listed(List<Resource> resources, Set<String> uris) {}

  private volatile Listed listed = new Listed(List.of(), Set.of());

  private SkillFiles(ResourceProvider own, ResourceProvider files) {
    this.own = own;
    this.files = files;
  }

  /**
   * {@code own} with the skill files of {@code skills} when it serves them itself; else {@code own}
   * as it is.
   */
  public static @Nullable ResourceProvider with(
      @Nullable ResourceProvider own, @Nullable SkillProvider skills) {
    ResourceProvider files = skills == null ? null : skills.files();
    if (files == null) {
      return own;
    }
    return own == null ? files : new SkillFiles(own, files);
  }

  @Override
  public List<Resource> resources() {
    Listed l = listed();
    List<Resource> mine = own.resources();
    List<Resource> all = new ArrayList<>(mine.size() + l.resources().size());
    for (Resource r : mine) {
      if (!l.uris().contains(r.uri())) {
        all.add(r);
      }
    }
    all.addAll(l.resources());
    return all;
  }

  @Override
  public List<ResourceTemplate> templates() {
    return own.templates();
  }

  @Override
  public Optional<List<ResourceContents>> read(String uri) throws Exception {
    return skillFile(uri) ? files.read(uri) : own.read(uri);
  }

  @Override
  public boolean visible(Caller caller, String uri) {
    return skillFile(uri) ? files.visible(caller, uri) : own.visible(caller, uri);
  }

  @Override
  public Optional<List<ResourceContents>> read(String uri, Caller caller) throws Exception {
    return skillFile(uri) ? files.read(uri, caller) : own.read(uri, caller);
  }

  @Override
  public boolean visible(Caller caller, ResourceTemplate template) {
    return own.visible(caller, template);
  }

  @Override
  public Completion complete(
      ResourceTemplate template, String variable, String value, Map<String, String> context)
      throws Exception {
    return own.complete(template, variable, value, context);
  }

  @Override
  public AutoCloseable onChange(Listener listener) {
    AutoCloseable a = own.onChange(listener);
    AutoCloseable b = files.onChange(listener);
    return () -> {
      try (b) {
        a.close();
      }
    };
  }

  private boolean skillFile(String uri) {
    return listed().uris().contains(uri);
  }

  @SuppressWarnings("ReferenceEquality") // the same listing, not an equal one: a change replaces it
  private Listed listed() {
    List<Resource> now = files.resources();
    Listed l = listed;
    if (l.resources() != now) {
      Set<String> uris = new HashSet<>();
      now.forEach(r -> uris.add(r.uri()));
      l = new Listed(now, Set.copyOf(uris));
      listed = l;
    }
    return l;
  }
}
