package io.promptd.library.internal.index;

import io.promptd.library.Diagnostic;
import io.promptd.library.internal.disk.IndexFormat;
import io.promptd.library.internal.disk.StoredPrompt;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.Stamp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the on-disk index keeps of a {@link LibraryIndex.Entry}: given to
 * {@link io.promptd.library.internal.disk.LibraryCache#write} and {@code encode}, which write each
 * entry as it is made.
 */
public final class CachedEntries {
  private CachedEntries() {}

  /** The index entry for {@code entry}, or null when it must be read again next time anyway. */
  public static IndexFormat.@Nullable Cached of(LibraryIndex.Entry entry, FileSource source) {
    LibraryIndex.Served good = entry.good();
    if (!entry.lastOk() || good == null || !entry.stamp().settled()) {
      return null;
    }
    List<String> dependencies = new ArrayList<>();
    List<long[]> stamps = new ArrayList<>();
    for (Path dependency : entry.last().dependencies()) {
      Stamp now = source.stamp(dependency);
      if (now != null && !now.settled()) {
        return null;
      }
      dependencies.add(dependency.toString());
      stamps.add(now == null ? new long[] {-1, -1} : new long[] {now.size(), now.modified()});
    }
    List<IndexFormat.Problem> problems = new ArrayList<>();
    for (Diagnostic d : entry.last().diagnostics()) {
      problems.add(new IndexFormat.Problem(d.isError(), d.line(), d.message()));
    }
    List<String> attachments = new ArrayList<>();
    entry.last().attachments().forEach(p -> attachments.add(p.toString()));
    return new IndexFormat.Cached(
        entry.root().index(),
        entry.file().toString(),
        entry.stamp().size(),
        entry.stamp().modified(),
        good.definition().name(),
        stored(good),
        good.nameLine(),
        good.definition().completer() != null,
        entry.last().fingerprint(),
        problems,
        dependencies,
        stamps,
        attachments,
        good.declared());
  }

  /**
   * What {@code good} lists, as the index holds it: the bytes it was restored from, else its prompt
   * encoded.
   */
  private static StoredPrompt stored(LibraryIndex.Served good) {
    StoredPrompt stored = good.stored();
    return stored != null ? stored : StoredPrompt.of(good.definition().prompt());
  }
}
