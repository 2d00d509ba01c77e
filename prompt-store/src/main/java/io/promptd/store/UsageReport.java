package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Usage per prompt, version and label since a time, read from {@code prompt_usage}: what
 * {@code promptd usage} prints ({@link #read}), and the same per client and outcome, which the
 * management API answers ({@link #uses}). A version (12 hex digits of a file's SHA-256) is matched
 * with the store's file versions holding that content, so that it reads as the version number
 * {@code promptd history} shows.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class UsageReport {
  private UsageReport() {}

  /**
   * One prompt's version under one label.
   *
   * @param prompt the prompt's name
   * @param version the version recorded (12 hex digits of the file's SHA-256)
   * @param storeVersions the store's version numbers of files with that content (empty: none holds
   *     it, such as a version served from a folder or from Git)
   * @param label the label served, or {@code latest}
   * @param byOutcome uses by outcome (rendered, refused, form_asked, form_declined, error)
   * @param uses every use
   * @param totalMicros their durations added up
   */
  public record Row(
      String prompt,
      String version,
      Set<Integer> storeVersions,
      String label,
      Map<String, Long> byOutcome,
      long uses,
      long totalMicros) {
    /** Checks and copies the fields. */
    public Row {
      requireNonNull(prompt, "prompt");
      requireNonNull(version, "version");
      storeVersions = Set.copyOf(storeVersions);
      requireNonNull(label, "label");
      byOutcome = Map.copyOf(byOutcome);
    }

    /** The mean duration in milliseconds: the total divided by the uses. */
    public double meanMillis() {
      return uses == 0 ? 0 : totalMicros / 1000.0 / uses;
    }
  }

  /**
   * The uses of one prompt's version under one label by one client (its self-reported name) with
   * one outcome: the finest grain the report reads, which {@link #read} adds up per prompt, version
   * and label.
   *
   * @param prompt the prompt's name
   * @param version the version recorded (12 hex digits of the file's SHA-256)
   * @param storeVersions the store's version numbers of files with that content (empty when none
   *     holds it)
   * @param label the label served, or {@code latest}
   * @param client the client's name ({@code ""} when it gave none)
   * @param outcome rendered, refused, form_asked, form_declined or error
   * @param uses the uses
   * @param totalMicros their durations added up
   */
  public record Use(
      String prompt,
      String version,
      Set<Integer> storeVersions,
      String label,
      String client,
      String outcome,
      long uses,
      long totalMicros) {
    /** Checks and copies the fields. */
    public Use {
      requireNonNull(prompt, "prompt");
      requireNonNull(version, "version");
      storeVersions = Set.copyOf(storeVersions);
      requireNonNull(label, "label");
      requireNonNull(client, "client");
      requireNonNull(outcome, "outcome");
    }
  }

  private static final String QUERY =
      "SELECT prompt, version, label, client, outcome, sum(uses), sum(total_micros) FROM prompt_usage"
          + " WHERE minute >= ? AND (?::text IS NULL OR prompt = ?)"
          + " GROUP BY prompt, version, label, client, outcome";
  private static final String VERSIONS =
      "SELECT DISTINCT left(sha256, 12), version FROM file_versions WHERE left(sha256, 12) = ANY (?)";

  /**
   * The usage since {@code since} (of the prompt {@code prompt}, or of every prompt), by prompt (in
   * name order), then by uses (most first).
   *
   * @throws StoreException when the store cannot be read
   */
  public static List<Row> read(StoreDatabase database, Instant since, @Nullable String prompt)
      throws StoreException {
    record Group(String prompt, String version, Set<Integer> storeVersions, String label) {}
    Map<Group, Map<String, Long>> outcomes = new LinkedHashMap<>();
    Map<Group, long[]> totals = new HashMap<>();
    for (Use u : uses(database, since, prompt)) {
      Group g = new Group(u.prompt(), u.version(), u.storeVersions(), u.label());
      outcomes.computeIfAbsent(g, k -> new HashMap<>()).merge(u.outcome(), u.uses(), Long::sum);
      long[] t = totals.computeIfAbsent(g, k -> new long[2]);
      t[0] += u.uses();
      t[1] += u.totalMicros();
    }
    List<Row> rows = new ArrayList<>();
    outcomes.forEach((g, byOutcome) -> {
      long[] t = totals.getOrDefault(g, new long[2]);
      rows.add(
          new Row(g.prompt(), g.version(), g.storeVersions(), g.label(), byOutcome, t[0], t[1]));
    });
    rows.sort(Comparator.comparing(Row::prompt)
        .thenComparing(Comparator.comparingLong(Row::uses).reversed())
        .thenComparing(Row::version)
        .thenComparing(Row::label));
    return rows;
  }

  /**
   * The usage since {@code since} (of the prompt {@code prompt}, or of every prompt) per prompt,
   * version, label, client and outcome, by prompt, version, label, client and outcome (in that
   * order).
   *
   * @throws StoreException when the store cannot be read
   */
  public static List<Use> uses(StoreDatabase database, Instant since, @Nullable String prompt)
      throws StoreException {
    database.migrate();
    record Read(
        String prompt,
        String version,
        String label,
        String client,
        String outcome,
        long uses,
        long micros) {}
    List<Read> read = new ArrayList<>();
    Map<String, Set<Integer>> numbers = new HashMap<>();
    try (Connection c = database.connection(10_000)) {
      try (PreparedStatement s = c.prepareStatement(QUERY)) {
        s.setTimestamp(1, Timestamp.from(since));
        s.setString(2, prompt);
        s.setString(3, prompt);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            read.add(new Read(
                r.getString(1),
                r.getString(2),
                r.getString(3),
                r.getString(4),
                r.getString(5),
                r.getLong(6),
                r.getLong(7)));
          }
        }
      }
      String[] digests = read.stream().map(Read::version).distinct().toArray(String[]::new);
      try (PreparedStatement s = c.prepareStatement(VERSIONS)) {
        s.setArray(1, c.createArrayOf("text", digests));
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            numbers.computeIfAbsent(r.getString(1), k -> new TreeSet<>()).add(r.getInt(2));
          }
        }
      }
    } catch (SQLException e) {
      throw StoreException.failed(
          "read the usage",
          "reading usage from the store " + database.url() + " failed: "
              + StoreException.reason(e));
    }
    List<Use> uses = new ArrayList<>();
    for (Read r : read) {
      uses.add(new Use(
          r.prompt(),
          r.version(),
          numbers.getOrDefault(r.version(), Set.of()),
          r.label(),
          r.client(),
          r.outcome(),
          r.uses(),
          r.micros()));
    }
    uses.sort(Comparator.comparing(Use::prompt)
        .thenComparing(Use::version)
        .thenComparing(Use::label)
        .thenComparing(Use::client)
        .thenComparing(Use::outcome));
    return uses;
  }
}
