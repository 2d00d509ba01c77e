package io.promptd.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What a publish changes, given each file's newest row in the store and what the publish wants each
 * path to hold: computed once for a publish that writes it and for a {@link Preview} that only
 * shows it.
 *
 * @param changes path to the new bytes, or to null for a deletion; only paths whose content changes
 * @param hashes the SHA-256 of each new content, by path
 * @param added paths the store does not hold now, in order
 * @param changed paths whose content changes, in order
 * @param deleted paths that get a deletion marker, in order
 * @param files how many files the store holds afterwards
 */
record Diff(
    Map<String, byte @Nullable []> changes,
    Map<String, String> hashes,
    List<String> added,
    List<String> changed,
    List<String> deleted,
    int files) {
  static Diff of(Map<String, StoreQueries.Current> current, Map<String, byte @Nullable []> wanted) {
    Map<String, byte @Nullable []> changes = new TreeMap<>();
    Map<String, String> hashes = new HashMap<>();
    List<String> added = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    for (Map.Entry<String, byte @Nullable []> e : new TreeMap<>(wanted).entrySet()) {
      StoreQueries.Current now = current.get(e.getKey());
      String nowHash = now == null ? null : now.sha256();
      byte[] data = e.getValue();
      String hash = data == null ? null : StoreQueries.sha256(data);
      if (Objects.equals(hash, nowHash)) {
        continue;
      }
      changes.put(e.getKey(), data);
      if (hash != null) {
        hashes.put(e.getKey(), hash);
      }
      if (data == null) {
        deleted.add(e.getKey());
      } else if (nowHash == null) {
        added.add(e.getKey());
      } else {
        changed.add(e.getKey());
      }
    }
    int files = (int) current.values().stream().filter(x -> x.sha256() != null).count()
        + added.size()
        - deleted.size();
    return new Diff(changes, hashes, added, changed, deleted, files);
  }

  /** What a publish that wants the store to hold exactly {@code files} changes. */
  static Map<String, byte @Nullable []> replacing(
      Map<String, byte[]> files, Map<String, StoreQueries.Current> current) {
    Map<String, byte @Nullable []> changes = new TreeMap<>(files);
    current.forEach((path, c) -> {
      if (c.sha256() != null && !files.containsKey(path)) {
        changes.put(path, null);
      }
    });
    return changes;
  }

  /** The publish's result once written as {@code libraryVersion}. */
  Published published(long libraryVersion) {
    return new Published(libraryVersion, added.size(), changed.size(), deleted.size(), files);
  }
}
