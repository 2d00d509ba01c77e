package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.PromptTree.Node;
import io.promptd.mcp.server.PromptTree.Tree;
import io.promptd.mcp.server.internal.state.PromptSnapshot;
import io.promptd.mcp.server.internal.state.UnicodeText;
import io.promptd.mcp.spi.Caller;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The prompts a server offers: an immutable snapshot, sorted by name, swapped atomically on every
 * change. Readers never lock and never see half an update; {@link #update} applies many changes as
 * one.
 *
 * <p>A snapshot is a persistent balanced tree: an edit copies only the path to the changed prompt
 * and shares the rest with the snapshot before it, so changing one prompt of 100,000 costs a few
 * dozen small objects, not a copy of the catalog.
 *
 * <p>Listeners run after each change that altered the catalog, on the thread that made it; the
 * server coalesces them into {@code notifications/prompts/list_changed}.
 */
@Stability(Stability.Tier.STABLE)
public final class PromptCatalog {
  private final AtomicReference<Snapshot> current = new AtomicReference<>(Snapshot.EMPTY);
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<@Nullable Set<Set<String>>>> accessListeners =
      new CopyOnWriteArrayList<>();
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
    List<PromptDefinition> sorted = sorted(prompts);
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).name().equals(sorted.get(i - 1).name())) {
        throw new IllegalArgumentException(
            "two prompts are named '" + sorted.get(i).name() + "'");
      }
    }
    // Checked unique just now: no second pass to drop duplicates.
    update(editor -> editor.replaceWithUnique(sorted));
  }

  /**
   * {@code prompts} sorted by name; stable, so of two prompts with one name the later stays later.
   */
  private static List<PromptDefinition> sorted(Collection<PromptDefinition> prompts) {
    PromptDefinition[] array = prompts.toArray(new PromptDefinition[0]);
    Arrays.sort(array, (a, b) -> a.name().compareTo(b.name()));
    return Arrays.asList(array);
  }

  /**
   * Applies several changes atomically: readers see all of them or none, and listeners hear of them
   * once.
   *
   * @param changes edits the catalog through the {@link Editor} it is given
   */
  public void update(Consumer<Editor> changes) {
    requireNonNull(changes, "changes");
    boolean changed;
    Editor editor;
    synchronized (writeLock) {
      Snapshot before = current.get();
      editor = new Editor(before.root);
      changes.accept(editor);
      // Identity: an edit that changed nothing (the same prompt put again) returns the very same
      // tree.
      changed = editor.root != before.root;
      if (changed) {
        current.set(new Snapshot(editor.root, before.version + 1));
      }
    }
    if (changed) {
      for (Runnable listener : listeners) {
        listener.run();
      }
      Set<Set<String>> touched = editor.everyone ? null : Set.copyOf(editor.touched);
      for (Consumer<@Nullable Set<Set<String>>> listener : accessListeners) {
        listener.accept(touched);
      }
    }
  }

  /** The prompt named {@code name}. */
  public Optional<PromptDefinition> get(String name) {
    return Optional.ofNullable(current.get().get(name));
  }

  /** How many prompts there are. */
  public int size() {
    return Tree.size(current.get().root);
  }

  /** Every prompt, sorted by name. */
  public List<PromptDefinition> all() {
    Node root = current.get().root;
    PromptDefinition[] out = new PromptDefinition[Tree.size(root)];
    Tree.fill(root, out, 0);
    return List.of(out);
  }

  /**
   * How many changes have altered this catalog: 0 when created empty, one more after each change
   * that altered it (an {@link #update} counts once however many prompts it touched). It never goes
   * down.
   */
  public long version() {
    return current.get().version;
  }

  /**
   * A catalog of this one's prompts that {@code keep} accepts, kept in step with it: after each
   * change here it holds what passes then. It follows this catalog for as long as this one lives.
   */
  public PromptCatalog filtered(Predicate<PromptDefinition> keep) {
    requireNonNull(keep, "keep");
    PromptCatalog view = new PromptCatalog();
    Runnable copy = () -> {
      // One copy at a time, each of the catalog as it is when it runs: the last one is current.
      synchronized (view.writeLock) {
        view.replaceAll(all().stream().filter(keep).toList());
      }
    };
    onChange(copy);
    copy.run();
    return view;
  }

  /** Calls {@code listener} after every change; returns a handle that removes it. */
  public AutoCloseable onChange(Runnable listener) {
    requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * Calls {@code listener} after every change with the scopes required by the prompts it added,
   * removed or replaced (before and after), so that only callers who may see one of them need hear
   * of it; null when every caller should.
   */
  AutoCloseable onAccessChange(Consumer<@Nullable Set<Set<String>>> listener) {
    accessListeners.add(listener);
    return () -> accessListeners.remove(listener);
  }

  /** The current snapshot, for paging. */
  Snapshot snapshot() {
    return current.get();
  }

  /** Edits a catalog inside {@link PromptCatalog#update}. */
  public static final class Editor {
    private @Nullable Node root;
    /**
     * The scopes required by the prompts changed so far, before and after; {@link #everyone} when
     * not tracked.
     */
    private final Set<Set<String>> touched = new HashSet<>();

    private boolean everyone;

    private Editor(@Nullable Node from) {
      root = from;
    }

    /** Registers or replaces a prompt. */
    public void put(PromptDefinition prompt) {
      requireNonNull(prompt, "prompt");
      Node before = root;
      root = Tree.put(root, prompt);
      if (root != before) {
        PromptDefinition old = Tree.get(before, prompt.name());
        if (old != null) {
          touched.add(old.requiredScopes());
        }
        touched.add(prompt.requiredScopes());
      }
    }

    /** Removes a prompt; returns whether there was one. */
    public boolean remove(String name) {
      requireNonNull(name, "name");
      Node before = root;
      PromptDefinition old = Tree.get(before, name);
      root = Tree.remove(root, name);
      if (old != null && root != before) {
        touched.add(old.requiredScopes());
      }
      return root != before;
    }

    /**
     * Removes every prompt, then registers {@code prompts} (a later one wins a name given twice).
     */
    public void replaceAll(Collection<PromptDefinition> prompts) {
      replaceSorted(sorted(prompts));
    }

    private void replaceSorted(List<PromptDefinition> sorted) {
      List<PromptDefinition> unique = new ArrayList<>(sorted.size());
      for (PromptDefinition p : sorted) {
        if (!unique.isEmpty() && unique.getLast().name().equals(p.name())) {
          unique.set(unique.size() - 1, p);
        } else {
          unique.add(p);
        }
      }
      replaceWithUnique(unique);
    }

    private void replaceWithUnique(List<PromptDefinition> unique) {
      // Replacing nothing with nothing is no change; anything else counts as one, as a reload
      // should.
      if (root != null || !unique.isEmpty()) {
        root = Tree.build(unique, 0, unique.size());
        everyone = true; // comparing the whole catalog is not worth it for a (re)load
      }
    }

    /** Whether a prompt named {@code name} is present. */
    public boolean contains(String name) {
      return Tree.get(root, name) != null;
    }
  }

  /** One immutable state of the catalog: prompts sorted by name, and its version. */
  static final class Snapshot implements PromptSnapshot {
    static final Snapshot EMPTY = new Snapshot(null, 0);

    private final @Nullable Node root;
    private final long version;

    private Snapshot(@Nullable Node root, long version) {
      this.root = root;
      this.version = version;
    }

    @Override
    public @Nullable PromptDefinition get(String name) {
      PromptDefinition found = Tree.get(root, name);
      if (found != null) {
        return found;
      }
      // A client on macOS may send a name in NFD; the library names every prompt in NFC.
      String nfc = UnicodeText.nfc(name);
      return nfc.equals(name) ? null : Tree.get(root, nfc);
    }

    /**
     * Up to {@code limit} prompts whose names sort after {@code after} (from the start when null),
     * plus whether more follow. Keyed by name, so a prompt present throughout a walk is neither
     * skipped nor repeated.
     */
    Page page(@Nullable String after, int limit) {
      // An in-order walk from the first name after the cursor: O(log n + limit), whatever the
      // catalog's size.
      Deque<Node> path = start(after);
      List<PromptDefinition> items = new ArrayList<>(Math.max(0, Math.min(limit, Tree.size(root))));
      while (items.size() < limit && !path.isEmpty()) {
        items.add(next(path));
      }
      return new Page(items, !path.isEmpty());
    }

    /**
     * Up to {@code limit} prompts that {@code caller} may see whose names sort after {@code after},
     * plus whether more that it may see follow. Pages are as full as the caller's view allows, and
     * {@code more} is only true when a visible prompt follows, so the last page never has a cursor
     * to an empty one. Hidden prompts cost a step of the walk each: a caller that sees few of many
     * prompts makes the walk longer, never the page emptier.
     */
    @Override
    public PromptSnapshot.Listing page(@Nullable String after, int limit, Caller caller) {
      Page page = visiblePage(after, limit, caller);
      return new PromptSnapshot.Listing(page.items(), page.more());
    }

    /** {@link #page(String, int, Caller)} as this catalog's {@link Page}. */
    Page visiblePage(@Nullable String after, int limit, Caller caller) {
      if (caller.unrestricted()) {
        return page(after, limit);
      }
      Deque<Node> path = start(after);
      List<PromptDefinition> items = new ArrayList<>(Math.max(0, Math.min(limit, Tree.size(root))));
      while (items.size() < limit && !path.isEmpty()) {
        PromptDefinition p = next(path);
        if (p.visibleTo(caller)) {
          items.add(p);
        }
      }
      boolean more = false;
      while (!more && !path.isEmpty()) {
        more = next(path).visibleTo(caller);
      }
      return new Page(items, more);
    }

    /** The path to the first name after {@code after}, for an in-order walk with {@link #next}. */
    private Deque<Node> start(@Nullable String after) {
      Deque<Node> path = new ArrayDeque<>();
      for (Node n = root; n != null; ) {
        if (after == null || n.value.name().compareTo(after) > 0) {
          path.push(n);
          n = n.left;
        } else {
          n = n.right;
        }
      }
      return path;
    }

    /** The next prompt of an in-order walk, advancing {@code path}. */
    private static PromptDefinition next(Deque<Node> path) {
      Node n = path.pop();
      for (Node m = n.right; m != null; m = m.left) {
        path.push(m);
      }
      return n.value;
    }

    /** The tree's height, for tests of its balance. */
    int height() {
      return Tree.height(root);
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
