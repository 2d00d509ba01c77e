package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Usage counts written to the store's {@code prompt_usage} table in batches, per minute, by a
 * thread of its own: a use is added to a bounded in-memory aggregate (never waiting for the
 * database) and the aggregate is written every few seconds, adding to what other replicas wrote for
 * the same rows. While the database is away the aggregate keeps counting; a use that would need a
 * row beyond the bound is dropped and counted ({@link #dropped()}), and the outage is logged once
 * when it starts and once when it ends, with how many uses were dropped meanwhile.
 *
 * <p>What clients report of themselves is bounded, or any caller could add a row a request: a name
 * is kept as at most 64 printable ASCII characters, a version as its major.minor, and a prompt
 * counts at most 20 distinct clients a day, the uses of further ones under the client
 * {@code other}. Rows older than the retention (90 days unless told) are deleted at the first write
 * and hourly after.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreUsage implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");
  private static final String UPSERT =
      "INSERT INTO prompt_usage (minute, prompt, version, label, client, client_version, outcome,"
          + " uses, total_micros) SELECT * FROM unnest(?::timestamptz[], ?::text[], ?::text[], ?::text[],"
          + " ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[])"
          + " ON CONFLICT (minute, prompt, version, label, client, client_version, outcome)"
          + " DO UPDATE SET uses = prompt_usage.uses + EXCLUDED.uses,"
          + " total_micros = prompt_usage.total_micros + EXCLUDED.total_micros";
  private static final String EXPIRE = "DELETE FROM prompt_usage WHERE minute < ?";

  /** How long usage rows are kept when {@link #start(StoreDatabase, int, Duration)} is not told. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(90);

  /** How often rows older than the retention are deleted. */
  private static final long EXPIRE_EVERY_NANOS = TimeUnit.HOURS.toNanos(1);

  /**
   * What one use is counted by (the minute aside).
   *
   * @param prompt the prompt's name
   * @param version its version (see {@code Library.promptVersion})
   * @param label the label served, or {@code latest}
   * @param client the client's self-reported name, or empty: kept as printable ASCII, at most 64
   *     characters
   * @param clientVersion the client's self-reported version, or empty: kept as its major.minor
   *     ({@code 2.1} for {@code 2.1.0}), or as at most 16 printable characters when it has no
   *     number
   * @param outcome rendered, refused, form_asked, form_declined or error
   */
  public record Use(
      String prompt,
      String version,
      String label,
      String client,
      String clientVersion,
      String outcome) {
    /** Checks the fields and bounds a client's texts. */
    public Use {
      requireNonNull(prompt, "prompt");
      requireNonNull(version, "version");
      requireNonNull(label, "label");
      client = UsageClients.name(requireNonNull(client, "client"));
      clientVersion = UsageClients.version(requireNonNull(clientVersion, "clientVersion"));
      requireNonNull(outcome, "outcome");
    }
  }

  private record Key(long minute, Use use) {}

  private record Counts(long uses, long micros) {
    Counts plus(Counts other) {
      return new Counts(uses + other.uses, micros + other.micros);
    }
  }

  private final StoreDatabase database;
  private final int maxRows;
  private final long everyNanos;
  private final Duration retention;
  private final UsageClients clients = new UsageClients();
  private long expiredAt; // the writer's: System.nanoTime() of the last expiry
  private boolean expiredOnce; // the writer's
  private final Map<Key, Counts> pending = new ConcurrentHashMap<>();
  private final AtomicLong dropped = new AtomicLong();
  private final Object flushing = new Object();
  private final Thread writer;
  private volatile boolean closed;
  private boolean down; // guarded by flushing
  private long droppedAtLastWrite; // guarded by flushing: dropped() after the last good write

  private StoreUsage(StoreDatabase database, int maxRows, Duration every, Duration retention) {
    this.database = database;
    this.maxRows = maxRows;
    this.everyNanos = every.toNanos();
    this.retention = retention;
    this.writer = Thread.ofVirtual().name("promptd-usage-writer").unstarted(this::run);
  }

  /**
   * Starts writing usage to the store every {@code every}, keeping at most about {@code maxRows}
   * rows (prompt × version × label × client × outcome × minute) in memory between writes, and rows
   * for {@link #DEFAULT_RETENTION}.
   */
  public static StoreUsage start(StoreDatabase database, int maxRows, Duration every) {
    return start(database, maxRows, every, DEFAULT_RETENTION);
  }

  /**
   * Starts writing usage to the store every {@code every}, keeping at most about {@code maxRows}
   * rows in memory between writes; rows older than {@code retention} are deleted, by this server,
   * at its first write and hourly after.
   */
  public static StoreUsage start(
      StoreDatabase database, int maxRows, Duration every, Duration retention) {
    if (maxRows < 1 || every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException(
          "usage needs at least one row and a positive interval, not " + maxRows + ", " + every);
    }
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("usage retention must be positive, not " + retention);
    }
    StoreUsage usage =
        new StoreUsage(requireNonNull(database, "database"), maxRows, every, retention);
    usage.writer.start();
    return usage;
  }

  /** Counts one use that took {@code duration}, now; never waits for the database. */
  public void add(Use use, Duration duration) {
    add(Instant.now(), use, duration);
  }

  /** Counts one use at {@code time} (its minute is kept). */
  void add(Instant time, Use use, Duration duration) {
    long second = time.getEpochSecond();
    Use counted = clients.kept(second, use.prompt(), use.client(), use.clientVersion())
        ? use
        : new Use(use.prompt(), use.version(), use.label(), UsageClients.OTHER, "", use.outcome());
    Key key = new Key(second / 60 * 60, counted);
    merge(key, new Counts(1, Math.max(0, duration.toNanos() / 1000)));
  }

  private void merge(Key key, Counts counts) {
    // The bound is checked before the row is made, so a burst of new rows from many threads may
    // pass it by a few.
    if (!pending.containsKey(key) && pending.size() >= maxRows) {
      dropped.addAndGet(counts.uses());
      return;
    }
    pending.merge(key, counts, Counts::plus);
  }

  /** How many uses were dropped since the start: they found the in-memory aggregate full. */
  public long dropped() {
    return dropped.get();
  }

  /**
   * Writes what is counted now, in one transaction; on failure puts it back (dropping what no
   * longer fits).
   *
   * @return whether the write succeeded (or there was nothing to write)
   */
  public boolean flush() {
    synchronized (flushing) {
      List<Map.Entry<Key, Counts>> batch = new ArrayList<>();
      for (Key key : List.copyOf(pending.keySet())) {
        Counts c = pending.remove(key);
        if (c != null) {
          batch.add(Map.entry(key, c));
        }
      }
      if (batch.isEmpty() && !down) {
        return true;
      }
      try {
        write(batch);
      } catch (SQLException e) {
        batch.forEach(entry -> merge(entry.getKey(), entry.getValue()));
        if (!down) {
          down = true;
          LOG.log(
              Level.WARNING,
              "usage counts cannot be written to the store " + database.url() + " ("
                  + e.getMessage() + "); counting them in memory, up to " + maxRows
                  + " rows, until it answers");
        }
        return false;
      }
      long droppedNow = dropped.get();
      long lost = droppedNow - droppedAtLastWrite;
      droppedAtLastWrite = droppedNow;
      if (down || lost > 0) {
        LOG.log(
            lost > 0 ? Level.WARNING : Level.INFO,
            "usage counts written to the store " + database.url()
                + (down ? " again; " : "; ") + lost + " use(s) were dropped "
                + (down ? "while it was away" : "since the last write")
                + " (the in-memory bound of " + maxRows + " rows was reached)");
        down = false;
      }
      return true;
    }
  }

  private void write(List<Map.Entry<Key, Counts>> batch) throws SQLException {
    try {
      database.migrate(); // once per process: the table may be newer than the store
    } catch (StoreException e) {
      throw new SQLException(e.getMessage(), e);
    }
    try (Connection c = database.connection()) {
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement(UPSERT)) {
        int n = batch.size();
        Object[][] columns = new Object[9][n];
        for (int i = 0; i < n; i++) {
          Key k = batch.get(i).getKey();
          Counts counts = batch.get(i).getValue();
          columns[0][i] = Timestamp.from(Instant.ofEpochSecond(k.minute()));
          columns[1][i] = k.use().prompt();
          columns[2][i] = k.use().version();
          columns[3][i] = k.use().label();
          columns[4][i] = k.use().client();
          columns[5][i] = k.use().clientVersion();
          columns[6][i] = k.use().outcome();
          columns[7][i] = counts.uses();
          columns[8][i] = counts.micros();
        }
        String[] types = {
          "timestamptz", "text", "text", "text", "text", "text", "text", "int8", "int8"
        };
        for (int col = 0; col < 9; col++) {
          s.setArray(col + 1, c.createArrayOf(types[col], columns[col]));
        }
        s.executeUpdate(); // one statement: one round trip for the whole batch
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  /**
   * Deletes the rows older than the retention, counted back from {@code now}.
   *
   * @return how many rows were deleted
   */
  int expire(Instant now) throws SQLException {
    try {
      database.migrate();
    } catch (StoreException e) {
      throw new SQLException(e.getMessage(), e);
    }
    try (Connection c = database.connection();
        PreparedStatement s = c.prepareStatement(EXPIRE)) {
      s.setTimestamp(1, Timestamp.from(now.minus(retention)));
      return s.executeUpdate();
    }
  }

  /**
   * Expires old rows at the first write and hourly after; a failure is tried again at the next
   * write.
   */
  private void expireWhenDue() {
    if (expiredOnce && System.nanoTime() - expiredAt < EXPIRE_EVERY_NANOS) {
      return;
    }
    try {
      int deleted = expire(Instant.now());
      expiredOnce = true;
      expiredAt = System.nanoTime();
      if (deleted > 0) {
        LOG.log(
            Level.DEBUG,
            "usage: " + deleted + " row(s) older than " + retention.toDays() + " days deleted");
      }
    } catch (SQLException e) {
      // The write's own failure is logged (once per outage); this one would only repeat it.
    }
  }

  private void run() {
    while (!closed) {
      try {
        TimeUnit.NANOSECONDS.sleep(everyNanos);
      } catch (InterruptedException e) {
        break; // closing
      }
      expireWhenDue();
      try {
        flush();
      } catch (RuntimeException e) {
        LOG.log(Level.ERROR, "writing usage counts failed", e);
      }
    }
  }

  /** Stops the writer and writes what is left, once; what cannot be written is logged as lost. */
  @Override
  public void close() {
    closed = true;
    writer.interrupt();
    try {
      writer.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!flush()) {
      long left = pending.values().stream().mapToLong(Counts::uses).sum();
      LOG.log(
          Level.WARNING,
          "usage counts of " + left + " use(s) not written at shutdown, and " + dropped.get()
              + " dropped earlier: the store " + database.url() + " is away");
    }
  }
}
