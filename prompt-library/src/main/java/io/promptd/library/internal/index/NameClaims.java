package io.promptd.library.internal.index;

import io.promptd.library.internal.disk.IndexFormat;
import io.promptd.library.internal.index.LibraryIndex.Entry;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Which files claim each prompt name and which one wins, for {@link LibraryIndex}: roots in the
 * order given, then paths in order. Confined to one thread at a time by the index's callers.
 */
final class NameClaims {
  /**
   * Decides duplicate names: roots in the order given, then paths in order (compared without making
   * strings). Comparators here are plain lambdas rather than {@code Comparator.comparing} chains:
   * those are linked at run time inside the JDK, where the start-up cache does not keep them, which
   * slows a cold start.
   */
  private static final Comparator<Entry> PRECEDENCE = (a, b) -> {
    int byRoot = Integer.compare(a.root().index(), b.root().index());
    return byRoot != 0 ? byRoot : a.file().compareTo(b.file());
  };

  /**
   * The one file claiming each name that only one file claims: nearly every name, so they get no
   * ordered set (a {@code TreeSet} per name was ~300,000 objects at 100k files, made again on every
   * restart).
   */
  private Map<String, Entry> owners = new HashMap<>();
  /**
   * Every file claiming each name claimed twice or more, in {@link #PRECEDENCE} order: the first
   * one wins.
   */
  private final Map<String, TreeSet<Entry>> rivals = new HashMap<>();

  /**
   * Sizes the map for {@code count} names before the first claim: see {@link LibraryIndex#expect}.
   */
  void expect(int count) {
    if (owners.isEmpty() && rivals.isEmpty()) {
      owners = HashMap.newHashMap(count);
    }
  }

  /** The definition of each name's winner. */
  List<PromptDefinition> served() {
    List<PromptDefinition> served = new ArrayList<>(owners.size() + rivals.size());
    for (Entry sole : owners.values()) {
      PromptDefinition d = sole.definition();
      if (d != null) {
        served.add(d);
      }
    }
    for (TreeSet<Entry> candidates : rivals.values()) {
      PromptDefinition d = candidates.first().definition();
      if (d != null) {
        served.add(d);
      }
    }
    return served;
  }

  /**
   * The definition of each name's winner, sorted by name when {@code byName} (an on-disk index's
   * entries, which it keeps in name order) names every served prompt: the catalog's sort then only
   * checks the order, where sorting 100,000 names in hash order made ~1.7 M comparisons of four
   * objects each. Otherwise as {@link #served()}.
   */
  List<PromptDefinition> served(Collection<IndexFormat.Cached> byName) {
    List<PromptDefinition> served = new ArrayList<>(owners.size() + rivals.size());
    String previous = null;
    for (IndexFormat.Cached c : byName) {
      String name = c.name();
      int order = previous == null ? 1 : name.compareTo(previous);
      if (order < 0) {
        return served(); // not in name order: a name met twice would be served twice
      } else if (order == 0) {
        continue; // one name claimed by two files: one winner
      }
      previous = name;
      Entry winner = winner(name);
      PromptDefinition d = winner == null ? null : winner.definition();
      if (d != null) {
        served.add(d);
      }
    }
    // A name the index does not have (a new file, a renamed prompt) would be missing: fall back.
    return served.size() == owners.size() + rivals.size() ? served : served();
  }

  /**
   * The files that serve or claim a prompt, in the order of {@code byName} (the catalog's prompts,
   * sorted by name), the files claiming one name together: the order the on-disk index is written
   * in. Files that serve no prompt are left out, as the index leaves them out.
   *
   * @param files how many files there are, to size the list
   */
  List<Entry> servingByName(List<PromptDefinition> byName, int files) {
    List<Entry> out = new ArrayList<>(files);
    for (PromptDefinition d : byName) {
      TreeSet<Entry> candidates = rivals.get(d.name());
      Entry sole = candidates == null ? owners.get(d.name()) : null;
      if (candidates != null) {
        out.addAll(candidates);
      } else if (sole != null) {
        out.add(sole);
      }
    }
    return out;
  }

  /**
   * Records that {@code entry} claims {@code name}; an entry already there for the same file is
   * kept, as before.
   */
  void claim(String name, Entry entry) {
    TreeSet<Entry> candidates = rivals.get(name);
    if (candidates != null) {
      candidates.add(entry);
      return;
    }
    Entry sole = owners.putIfAbsent(name, entry);
    if (sole != null && PRECEDENCE.compare(sole, entry) != 0) {
      candidates = new TreeSet<>(PRECEDENCE);
      candidates.add(sole);
      candidates.add(entry);
      owners.remove(name);
      rivals.put(name, candidates);
    }
  }

  /**
   * Drops the claim of {@code entry} on {@code name}; a name left with one claimant goes back to
   * {@link #owners}.
   */
  void release(String name, Entry entry) {
    TreeSet<Entry> candidates = rivals.get(name);
    if (candidates == null) {
      Entry sole = owners.get(name);
      if (sole != null && PRECEDENCE.compare(sole, entry) == 0) {
        owners.remove(name);
      }
      return;
    }
    candidates.remove(entry);
    if (candidates.size() < 2) {
      rivals.remove(name);
      if (!candidates.isEmpty()) {
        owners.put(name, candidates.first());
      }
    }
  }

  /** The file whose prompt is served under {@code name}, or null when no file claims it. */
  @Nullable
  Entry winner(String name) {
    TreeSet<Entry> candidates = rivals.get(name);
    return candidates != null ? candidates.first() : owners.get(name);
  }

  /** The names claimed by two files or more, each with its claimants in precedence order. */
  Collection<? extends NavigableSet<Entry>> contested() {
    return rivals.values();
  }
}
