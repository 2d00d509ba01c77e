package io.promptd.store;

import io.promptd.library.FileSplits;
import io.promptd.library.LibraryFiles;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What a server serving one label serves, and what changed since it last looked. A file the label
 * points at is served at that version. A file without the label is not served when it is an entry
 * of its own ({@link LibraryFiles#entry}: a prompt, a resource, a skill's {@code SKILL.md}) or lies
 * in a skill's folder; any other file (a partial, an attachment, a {@code _folder.yaml}) follows
 * its newest version. The view's version is the store's {@code library_version + labels_version},
 * which grows with every publish and every label move alike on every replica.
 */
final class LabelView {
  private final String label;
  /** Path to the version served. */
  private Map<String, Integer> served = new HashMap<>();
  /** The label's A/B splits as of the last call. */
  private FileSplits splits;

  LabelView(String label) {
    this.label = label;
    this.splits = new FileSplits(label, Map.of());
  }

  String label() {
    return label;
  }

  /**
   * The label's A/B splits as {@link #changes} last read them: each split file's versions in order,
   * by path.
   */
  FileSplits splits() {
    return splits;
  }

  /**
   * The files whose served version differs from the last call's: their content, or null when no
   * longer served.
   */
  StoreQueries.Changes changes(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    int isolation = c.getTransactionIsolation();
    c.setAutoCommit(false);
    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    try {
      StoreQueries.Changes out = read(c);
      c.commit();
      return out;
    } finally {
      c.rollback();
      c.setAutoCommit(autoCommit);
      c.setTransactionIsolation(isolation);
    }
  }

  private StoreQueries.Changes read(Connection c) throws SQLException {
    long libraryVersion;
    long version;
    try (PreparedStatement s =
            c.prepareStatement("SELECT library_version, labels_version FROM store");
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        throw new SQLException("the store table has no row; was the schema changed by hand?");
      }
      libraryVersion = r.getLong(1);
      version = libraryVersion + r.getLong(2);
    }
    Map<String, StoreQueries.Current> current = StoreQueries.current(c, libraryVersion);
    Map<String, Integer> labelled = new HashMap<>();
    try (PreparedStatement s =
        c.prepareStatement("SELECT path, version FROM labels WHERE label = ?")) {
      s.setString(1, label);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          labelled.put(r.getString(1), r.getInt(2));
        }
      }
    }
    Set<String> skills = new HashSet<>();
    current.forEach((path, now) -> {
      if (now.sha256() != null && path.endsWith("/SKILL.md")) {
        skills.add(path.substring(0, path.length() - "SKILL.md".length()));
      }
    });
    Map<String, Integer> target = new HashMap<>();
    current.forEach((path, now) -> {
      Integer pointed = labelled.get(path);
      if (pointed != null) {
        target.put(path, pointed);
      } else if (now.sha256() != null && !needsLabel(path, skills)) {
        target.put(path, now.version());
      }
    });
    Map<String, byte @Nullable []> files = new TreeMap<>();
    Map<String, String> digests = new HashMap<>();
    List<String> paths = new ArrayList<>();
    List<Integer> versions = new ArrayList<>();
    target.forEach((path, v) -> {
      if (!v.equals(served.get(path))) {
        paths.add(path);
        versions.add(v);
      }
    });
    served.keySet().stream().filter(p -> !target.containsKey(p)).forEach(p -> files.put(p, null));
    if (!paths.isEmpty()) {
      try (PreparedStatement s = c.prepareStatement("SELECT f.path, f.content, f.sha256 FROM"
          + " file_versions f JOIN unnest(?::text[], ?::integer[]) AS w (path, version)"
          + " ON f.path = w.path AND f.version = w.version")) {
        s.setArray(1, c.createArrayOf("text", paths.toArray()));
        s.setArray(2, c.createArrayOf("integer", versions.toArray()));
        s.setFetchSize(1_000);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            files.put(r.getString(1), r.getBytes(2));
            digests.put(r.getString(1), r.getString(3));
          }
        }
      }
    }
    served = target;
    splits = readSplits(c);
    return new StoreQueries.Changes(version, files, digests);
  }

  private FileSplits readSplits(Connection c) throws SQLException {
    Map<String, List<FileSplits.Version>> out = new TreeMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT s.path, s.version, s.weight, f.content,"
        + " f.sha256 FROM label_splits s JOIN file_versions f ON f.path = s.path"
        + " AND f.version = s.version WHERE s.label = ? ORDER BY s.path, s.position")) {
      s.setString(1, label);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
              .add(new FileSplits.Version(r.getInt(2), r.getInt(3), r.getBytes(4), r.getString(5)));
        }
      }
    }
    return new FileSplits(label, out);
  }

  private static boolean needsLabel(String path, Set<String> skills) {
    if (LibraryFiles.entry(path)) {
      return true;
    }
    for (int at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
      if (skills.contains(path.substring(0, at + 1))) {
        return true;
      }
    }
    return false;
  }
}
