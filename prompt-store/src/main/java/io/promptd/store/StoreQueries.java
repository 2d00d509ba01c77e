package io.promptd.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The store's reads, shared by publishing and serving: one place that knows the schema's queries.
 */
final class StoreQueries {
  /** The channel publishes notify, with the new library version as payload. */
  static final String CHANNEL = "promptd_library";

  private StoreQueries() {}

  /**
   * A file's newest row.
   *
   * @param version its own version
   * @param sha256 its content's hash, or null when that row deleted it
   */
  record Current(int version, @Nullable String sha256) {}

  /**
   * The files changed after one library version, up to another.
   *
   * @param version the library version they bring the reader to
   * @param files path to new bytes, or to null for a file deleted
   * @param sha256 path to the new bytes' SHA-256 in hexadecimal (deleted files have none)
   */
  record Changes(long version, Map<String, byte @Nullable []> files, Map<String, String> sha256) {}

  static long libraryVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT library_version FROM store")) {
      if (!r.next()) {
        throw new SQLException("the store table has no row; was the schema changed by hand?");
      }
      return r.getLong(1);
    }
  }

  /**
   * Each file's newest row written at or before library version {@code upTo}, deleted ones
   * included.
   */
  static Map<String, Current> current(Connection c, long upTo) throws SQLException {
    Map<String, Current> out = new HashMap<>();
    try (PreparedStatement s =
        c.prepareStatement("SELECT DISTINCT ON (path) path, version, sha256 FROM file_versions"
            + " WHERE library_version <= ? ORDER BY path, version DESC")) {
      s.setLong(1, upTo);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.put(r.getString(1), new Current(r.getInt(2), r.getString(3)));
        }
      }
    }
    return out;
  }

  /**
   * The files changed after library version {@code since}: their newest content, or null when
   * deleted. Loading the whole store is the same query with {@code since} 0, so a first load, a
   * notification and a catch-up after a lost connection are one code path.
   */
  static Changes changesSince(Connection c, long since) throws SQLException {
    long now = libraryVersion(c);
    Map<String, byte @Nullable []> files = new TreeMap<>();
    Map<String, String> digests = new HashMap<>();
    if (now > since) {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT DISTINCT ON (path) path, content, sha256 FROM"
              + " file_versions WHERE library_version > ? AND library_version <= ? ORDER BY path, version DESC")) {
        s.setLong(1, since);
        s.setLong(2, now);
        s.setFetchSize(1_000);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            files.put(r.getString(1), r.getBytes(2));
            String sha256 = r.getString(3);
            if (sha256 != null) {
              digests.put(r.getString(1), sha256);
            }
          }
        }
      }
    }
    return new Changes(now, files, digests);
  }

  /**
   * The parsed library index a replica serving {@code label} stored ({@code ""}: each file's newest
   * version), else the one of each file's newest version, or null when there is neither.
   */
  static byte @Nullable [] libraryIndex(Connection c, String label) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT data FROM library_index"
        + " WHERE label = ? OR label = '' ORDER BY label = ? DESC LIMIT 1")) {
      s.setString(1, label);
      s.setString(2, label);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getBytes(1) : null;
      }
    }
  }

  /**
   * Stores the parsed library index of what {@code label} serves ({@code ""}: each file's newest
   * version), made from version {@code version} of it, unless a newer one is there.
   */
  static void storeLibraryIndex(Connection c, String label, long version, byte[] data)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT INTO library_index (label, library_version, data) VALUES (?, ?, ?)"
            + " ON CONFLICT (label) DO UPDATE SET library_version = EXCLUDED.library_version, data = EXCLUDED.data,"
            + " written_at = now() WHERE library_index.library_version <= EXCLUDED.library_version")) {
      s.setString(1, label);
      s.setLong(2, version);
      s.setBytes(3, data);
      s.executeUpdate();
    }
  }

  /** Every version of {@code paths}, newest first within each path, paths sorted. */
  static List<FileVersion> history(Connection c, Collection<String> paths) throws SQLException {
    List<FileVersion> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT path, version, library_version, published_at, author,"
            + " sha256, deleted FROM file_versions WHERE path = ANY (?) ORDER BY path, version DESC")) {
      s.setArray(1, c.createArrayOf("text", paths.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(new FileVersion(
              r.getString(1),
              r.getInt(2),
              r.getLong(3),
              r.getTimestamp(4).toInstant(),
              r.getString(5),
              r.getString(6),
              r.getBoolean(7)));
        }
      }
    }
    return out;
  }

  /** Every path the store ever held, with the content of its newest version (null when deleted). */
  static Map<String, byte @Nullable []> latestOfAll(Connection c) throws SQLException {
    Map<String, byte @Nullable []> out = new TreeMap<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery(
            "SELECT DISTINCT ON (path) path, content FROM file_versions ORDER BY path, version DESC")) {
      while (r.next()) {
        out.put(r.getString(1), r.getBytes(2));
      }
    }
    return out;
  }

  /**
   * Version {@code version} of {@code path}: its row exists and holds content, or null when not.
   */
  static byte @Nullable [] content(Connection c, String path, int version, boolean[] found)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT content FROM file_versions WHERE path = ? AND version = ?")) {
      s.setString(1, path);
      s.setInt(2, version);
      try (ResultSet r = s.executeQuery()) {
        found[0] = r.next();
        return found[0] ? r.getBytes(1) : null;
      }
    }
  }

  static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }
}
