package io.promptd.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** The {@code protected_labels} table's statements (migration {@code V6__protected_labels.sql}). */
final class ProtectedLabels {
  /** RFC 6749 section 3.3's scope-token, at most 128 characters. */
  private static final Pattern SCOPE = Pattern.compile("[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,128}");

  private ProtectedLabels() {}

  static void checkScope(String scope) throws StoreException {
    if (!SCOPE.matcher(scope).matches()) {
      throw new StoreException(
          StoreException.Kind.REFUSED,
          "'" + scope + "' is not an OAuth scope: 1 to 128 printable ASCII characters other than"
              + " space, '\"' and '\\'");
    }
  }

  /**
   * The scope moving {@code label} needs, or null when it is not protected; locks its row for the
   * transaction.
   */
  static @Nullable String scope(Connection c, String label) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT scope FROM protected_labels WHERE label = ? FOR SHARE")) {
      s.setString(1, label);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getString(1) : null;
      }
    }
  }

  static void protect(Connection c, String label, String scope, String author) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT INTO protected_labels (label, scope, protected_by) VALUES (?, ?, ?)"
            + " ON CONFLICT (label) DO UPDATE SET scope = EXCLUDED.scope,"
            + " protected_by = EXCLUDED.protected_by, protected_at = now()")) {
      s.setString(1, label);
      s.setString(2, scope);
      s.setString(3, author);
      s.executeUpdate();
    }
  }

  /** Whether {@code label} was protected (and now is not). */
  static boolean unprotect(Connection c, String label) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("DELETE FROM protected_labels WHERE label = ?")) {
      s.setString(1, label);
      return s.executeUpdate() > 0;
    }
  }

  static SortedMap<String, String> all(Connection c) throws SQLException {
    SortedMap<String, String> out = new TreeMap<>();
    try (PreparedStatement s =
            c.prepareStatement("SELECT label, scope FROM protected_labels ORDER BY label");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        out.put(r.getString(1), r.getString(2));
      }
    }
    return out;
  }
}
