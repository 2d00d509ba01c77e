package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The prompts a server offers: an immutable snapshot, sorted by name, swapped atomically on every change. Readers never
 * lock and never see half an update; {@link #update} applies many changes as one.
 *
 * <p>Listeners run after each change that altered the catalog, on the thread that made it; the server coalesces them
 * into {@code notifications/prompts/list_changed}.
 */
public final class PromptCatalog {
  private final AtomicReference<Snapshot> current = new AtomicReference<>(Snapshot.EMPTY);
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final Object writeLock = new Object();

  private PromptCatalog() {}

  /** An empty catalog. */
  public static PromptCatalog create() {
    return new PromptCatalog();
  }

  /** A catalog holding {@code prompts}; names must be unique. */
  public static PromptCatalog of(Collection<PromptDefinition> prompts) {
    PromptCatalog catalog = new PromptCatalog();
    catalog.replaceAll(prompts);
    return catalog;
  }

  /** Registers a prompt, replacing any prompt of the same name. */
  public void put(PromptDefinition prompt) {
    requireNonNull(prompt, "prompt");
    update(editor -> editor.put(prompt));
  }

  /** Removes the prompt named {@code name}; returns whether there was one. */
  public boolean remove(String name) {
    requireNonNull(name, "name");
    boolean[] removed = new boolean[1];
    update(editor -> removed[0] = editor.remove(name));
    return removed[0];
  }

  /** Replaces every prompt with {@code prompts} in one change; names must be unique. */
  public void replaceAll(Collection<PromptDefinition> prompts) {
    requireNonNull(prompts, "prompts");
    Map<String, PromptDefinition> byName = new HashMap<>();
    for (PromptDefinition p : prompts) {
      if (byName.put(p.name(), p) != null) {
        throw new IllegalArgumentException("two prompts are named '" + p.name() + "'");
      }
    }
    update(editor -> editor.replaceAll(byName.values()));
  }

  /**
   * Applies several changes atomically: readers see all of them or none, and listeners hear of them once.
   *
   * @param changes edits the catalog through the {@link Editor} it is given
   */
  public void update(Consumer<Editor> changes) {
    requireNonNull(changes, "changes");
    boolean changed;
    synchronized (writeLock) {
      Snapshot before = current.get();
      Editor editor = new Editor(before);
      changes.accept(editor);
      changed = editor.changed;
      if (changed) {
        current.set(editor.build());
      }
    }
    if (changed) {
      for (Runnable listener : listeners) {
        listener.run();
      }
    }
  }

  /** The prompt named {@code name}. */
  public Optional<PromptDefinition> get(String name) {
    return Optional.ofNullable(current.get().byName.get(name));
  }

  /** How many prompts there are. */
  public int size() {
    return current.get().sorted.length;
  }

  /** Every prompt, sorted by name. */
  public List<PromptDefinition> all() {
    return List.of(current.get().sorted);
  }

  /** Calls {@code listener} after every change; returns a handle that removes it. */
  public AutoCloseable onChange(Runnable listener) {
    requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** The current snapshot, for paging. */
  Snapshot snapshot() {
    return current.get();
  }

  /** Edits a catalog inside {@link PromptCatalog#update}. */
  public static final class Editor {
    private final TreeMap<String, PromptDefinition> byName;
    private boolean changed;

    private Editor(Snapshot from) {
      // Copying a sorted map is linear and compares nothing: an edit to a 100,000-prompt catalog stays cheap.
      byName = new TreeMap<>(from.tree);
    }

    /** Registers or replaces a prompt. */
    public void put(PromptDefinition prompt) {
      requireNonNull(prompt, "prompt");
      PromptDefinition previous = byName.put(prompt.name(), prompt);
      changed |= !prompt.equals(previous);
    }

    /** Removes a prompt; returns whether there was one. */
    public boolean remove(String name) {
      boolean removed = byName.remove(name) != null;
      changed |= removed;
      return removed;
    }

    /** Removes every prompt, then registers {@code prompts}. */
    public void replaceAll(Collection<PromptDefinition> prompts) {
      changed |= !byName.isEmpty() || !prompts.isEmpty();
      byName.clear();
      for (PromptDefinition p : prompts) {
        byName.put(p.name(), p);
      }
    }

    /** Whether a prompt named {@code name} is present. */
    public boolean contains(String name) {
      return byName.containsKey(name);
    }

    private Snapshot build() {
      // The editor is discarded after build(), so its map can become the snapshot's without a copy.
      return new Snapshot(byName.values().toArray(new PromptDefinition[0]), new HashMap<>(byName), byName);
    }
  }

  /** One immutable state of the catalog: prompts sorted by name, and an index. */
  static final class Snapshot {
    static final Snapshot EMPTY = new Snapshot(new PromptDefinition[0], Map.of(), new TreeMap<>());

    private final PromptDefinition[] sorted;
    private final Map<String, PromptDefinition> byName;
    private final SortedMap<String, PromptDefinition> tree;

    private Snapshot(
        PromptDefinition[] sorted, Map<String, PromptDefinition> byName, SortedMap<String, PromptDefinition> tree) {
      this.sorted = sorted;
      this.byName = byName;
      this.tree = tree;
    }

    @Nullable PromptDefinition get(String name) {
      return byName.get(name);
    }

    /**
     * Up to {@code limit} prompts whose names sort after {@code after} (from the start when null), plus whether more
     * follow. Keyed by name, so a prompt present throughout a walk is neither skipped nor repeated.
     */
    Page page(@Nullable String after, int limit) {
      int from = 0;
      if (after != null) {
        int hi = sorted.length;
        while (from < hi) {
          int mid = (from + hi) >>> 1;
          if (sorted[mid].name().compareTo(after) <= 0) {
            from = mid + 1;
          } else {
            hi = mid;
          }
        }
      }
      int to = Math.min(sorted.length, from + limit);
      List<PromptDefinition> items = new ArrayList<>(Arrays.asList(sorted).subList(from, to));
      return new Page(items, to < sorted.length);
    }
  }

  /**
   * A page of prompts.
   *
   * @param items the prompts
   * @param more whether prompts follow the last one
   */
  record Page(List<PromptDefinition> items, boolean more) {}
}
