package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.library.internal.skills.SkillReader;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The library's skills by folder: each {@code SKILL.md} the listing finds makes its folder a skill,
 * read whole by {@link SkillReader}. A skill with errors keeps its last good version served, as
 * prompt files do. Not thread-safe; the library serializes access, and readers get an immutable
 * {@link Snapshot}.
 */
public final class SkillIndex implements Index {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");

  private final FileSource source;
  /** By skill folder. */
  private final Map<Path, Entry> skills = new HashMap<>();

  /**
   * One skill folder: its last good read (null when it never read cleanly), its current problems
   * and its {@code SKILL.md}'s stamp when read.
   */
  private record Entry(
      Root root,
      Path file,
      @Nullable SkillFolder good,
      List<Diagnostic> problems,
      @Nullable Stamp stamp) {}

  /**
   * What is served at one moment.
   *
   * @param skills the skills served, by path; one per path
   * @param diagnostics the problems of every skill folder, and of a path two folders claim
   */
  public record Snapshot(List<SkillFolder> skills, List<Diagnostic> diagnostics) {
    public static final Snapshot EMPTY = new Snapshot(List.of(), List.of());

    public Snapshot {
      skills = List.copyOf(skills);
      diagnostics = List.copyOf(diagnostics);
    }
  }

  public SkillIndex(FileSource source) {
    this.source = source;
  }

  /** Reads the skills whose {@code SKILL.md} a load's listing found. */
  void loadAll(List<FolderWalker.Found> found) {
    for (FolderWalker.Found f : found) {
      Path dir = f.file().getParent();
      if (dir != null && !skills.containsKey(dir)) {
        load(f.root(), dir, null);
      }
    }
  }

  private void load(Root root, Path dir, @Nullable Entry old) {
    Path file = dir.resolve(SkillReader.SKILL_MD);
    SkillReader.Result r = SkillReader.read(source, root, dir);
    SkillFolder good = r.skill() != null ? r.skill() : old == null ? null : old.good();
    skills.put(dir, new Entry(root, file, good, r.problems(), source.stamp(file)));
  }

  /** Whether any skill folder lies under {@code root}, served or not. */
  public boolean anyUnder(Root root) {
    return skills.values().stream().anyMatch(e -> e.root().index() == root.index());
  }

  /**
   * The {@code SKILL.md} files that differ from what was loaded, in {@code now} (the files a
   * watch's registration listed), for the changes made before the watch began. Supporting files are
   * not compared: their changes before the watch show up with the skill's next change.
   */
  @Override
  public Set<Path> changedSince(Map<Path, FolderWalker.Found> now) {
    Set<Path> changed = new HashSet<>();
    now.forEach((file, found) -> {
      if (found.role() != FileRole.SKILL) {
        return;
      }
      Path dir = file.getParent();
      Entry entry = dir == null ? null : skills.get(dir);
      Stamp then = entry == null ? null : entry.stamp();
      if (then == null
          || then.size() != found.stamp().size()
          || then.modified() != found.stamp().modified()) {
        changed.add(file);
      }
    });
    for (Entry known : skills.values()) {
      if (!now.containsKey(known.file())) {
        changed.add(known.file());
      }
    }
    return changed;
  }

  /**
   * Re-reads every skill that {@code changed} may touch: a skill holding a changed path, one at or
   * under a changed folder (a folder added, moved or deleted), one whose {@code SKILL.md} appeared
   * or went.
   */
  public void refresh(Set<Path> changed, Function<Path, @Nullable Root> rootOf) {
    Set<Path> affected = new LinkedHashSet<>();
    for (Path p : changed) {
      Root root = rootOf.apply(p);
      if (root == null) {
        continue;
      }
      for (Path dir : skills.keySet()) {
        if (dir.startsWith(p) || p.startsWith(dir)) {
          affected.add(dir);
        }
      }
      Path parent = p.getParent();
      if (SkillReader.isSkillMd(p) && parent != null) {
        affected.add(parent);
      }
      if (source.isFolder(p)) {
        try {
          source.list(root, p, f -> {
            Path dir = f.file().getParent();
            if (f.role() == FileRole.SKILL && dir != null) {
              affected.add(dir);
            }
          });
        } catch (IOException e) {
          LOG.log(Level.WARNING, "cannot list " + p + ": " + e.getMessage());
        }
      }
    }
    for (Path dir : affected) {
      Entry old = skills.get(dir);
      Root root = old != null ? old.root() : rootOf.apply(dir);
      if (root == null
          || !source.present(dir.resolve(SkillReader.SKILL_MD))
          || !wanted(root, dir)) {
        skills.remove(dir);
      } else {
        load(root, dir, old);
        logNewProblems(old, skills.get(dir));
      }
    }
  }

  /**
   * Logs each problem a reload found that the skill's read before did not have, once: the
   * diagnostics hold them all, and a skill whose last good version stays served would otherwise
   * keep it without a word.
   */
  private static void logNewProblems(@Nullable Entry old, @Nullable Entry now) {
    if (now == null) {
      return;
    }
    List<Diagnostic> before = old == null ? List.of() : old.problems();
    // The reader serves no skill with an error: an error now and a good version before is that
    // version kept.
    boolean kept = old != null && old.good() != null;
    for (Diagnostic d : now.problems()) {
      if (!before.contains(d)) {
        LOG.log(
            d.isError() ? Level.ERROR : Level.INFO,
            d.format()
                + (d.isError() && kept ? " (the skill's last good version stays served)" : ""));
      }
    }
  }

  /** Whether a listing enters {@code dir} and every folder between it and {@code root}. */
  private static boolean wanted(Root root, Path dir) {
    for (Path p = dir; p != null && p.startsWith(root.path()); p = p.getParent()) {
      if (!FolderWalker.wanted(root, p)) {
        return false;
      }
    }
    return true;
  }

  /**
   * What to serve now: the good skills with the scopes their folders give them (the nearest
   * {@code _folder.yaml}), one per path: the first root, then the {@code SKILL.md} path that sorts
   * first, wins; the others are errors.
   */
  public Snapshot snapshot(FolderDefaults folders) {
    List<Entry> entries = new ArrayList<>(skills.values());
    entries.sort(Comparator.comparingInt((Entry e) -> e.root().index())
        .thenComparing(e -> e.file().toString()));
    Map<String, SkillFolder> byPath = new HashMap<>();
    List<Diagnostic> problems = new ArrayList<>();
    for (Entry e : entries) {
      problems.addAll(e.problems());
      SkillFolder good = e.good();
      if (good == null) {
        continue;
      }
      SkillFolder first = byPath.get(good.path());
      if (first != null) {
        problems.add(Diagnostic.error(
            e.file(), 1, "skill path '" + good.path() + "' is already served by " + first.file()));
        continue;
      }
      byPath.put(good.path(), good.withScopes(folders.effective(e.root(), e.file(), null)));
    }
    List<SkillFolder> served = new ArrayList<>(byPath.values());
    served.sort(Comparator.comparing(SkillFolder::path));
    problems.sort(Problems.ORDER);
    return new Snapshot(served, problems);
  }

  @Override
  public FileRole role() {
    return FileRole.SKILL;
  }

  @Override
  public void loadAll(List<FolderWalker.Found> found, ExecutorService pool) {
    loadAll(found);
  }

  @Override
  public void reload(Reload reload) {
    refresh(reload.changed(), reload.rootOf());
  }
}
