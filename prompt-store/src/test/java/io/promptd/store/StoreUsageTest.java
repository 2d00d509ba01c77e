package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Tag("system") // starts a real PostgreSQL
@Timeout(90)
class StoreUsageTest {
  private static final Duration NEVER = Duration.ofHours(1); // the tests flush by hand

  private static String digest(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)))
        .substring(0, 12);
  }

  private static StoreUsage.Use use(String prompt, String version, String outcome) {
    return new StoreUsage.Use(prompt, version, "latest", "claude-code", "2.1.0", outcome);
  }

  @Test
  void countsAreWrittenInBatchesAddedUpAndReadPerPromptAndVersion() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    String hello = "Hello\n";
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("hello.prompt.md", hello.getBytes(StandardCharsets.UTF_8)), "alice");
    }
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreUsage usage = StoreUsage.start(database, 1000, NEVER)) {
      String v1 = digest(hello);
      for (int i = 0; i < 7; i++) {
        usage.add(use("hello", v1, "rendered"), Duration.ofMillis(2));
      }
      usage.add(use("hello", v1, "refused"), Duration.ofMillis(1));
      usage.add(
          new StoreUsage.Use("hello", v1, "latest", "cursor", "1.0", "rendered"),
          Duration.ofMillis(3));
      assertThat(usage.flush()).isTrue();
      for (int i = 0; i < 3; i++) { // a second batch adds to the rows of the first
        usage.add(use("hello", v1, "rendered"), Duration.ofMillis(2));
      }
      usage.add(use("other", "0123456789ab", "form_asked"), Duration.ofMillis(4));
      assertThat(usage.flush()).isTrue();

      List<UsageReport.Row> rows =
          UsageReport.read(database, Instant.now().minus(Duration.ofHours(1)), null);
      assertThat(rows).hasSize(2);
      UsageReport.Row first = rows.getFirst();
      assertThat(first.prompt()).isEqualTo("hello");
      assertThat(first.storeVersions()).containsExactly(1); // the store's version of that content
      assertThat(first.uses()).isEqualTo(12);
      assertThat(first.byOutcome()).isEqualTo(Map.of("rendered", 11L, "refused", 1L));
      assertThat(first.meanMillis()).isEqualTo(24.0 / 12);
      // The same rows per client and outcome, as the management API answers them.
      assertThat(UsageReport.uses(database, Instant.now().minus(Duration.ofHours(1)), "hello"))
          .extracting(u -> u.client() + " " + u.outcome() + " " + u.uses() + " " + u.totalMicros()
              + " " + u.storeVersions())
          .containsExactly(
              "claude-code refused 1 1000 [1]",
              "claude-code rendered 10 20000 [1]",
              "cursor rendered 1 3000 [1]");
      assertThat(rows.get(1).storeVersions()).isEmpty();
      assertThat(UsageReport.read(database, Instant.now().minus(Duration.ofHours(1)), "other"))
          .extracting(UsageReport.Row::prompt)
          .containsExactly("other");
      assertThat(UsageReport.read(database, Instant.now().plus(Duration.ofHours(1)), null))
          .isEmpty();
      assertThat(usage.dropped()).isZero();
    }
  }

  @Test
  void anOutageKeepsCountingUpToTheBoundAndCountsWhatItDrops() throws Exception {
    TestPostgres pg = TestPostgres.get();
    StoreUrl url = pg.newDatabase();
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger("io.promptd.store");
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getMessage().startsWith("usage counts")) {
          logged.add(r.getLevel() + " " + r.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(handler);
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreUsage usage = StoreUsage.start(database, 3, NEVER)) {
      usage.add(use("a", "v", "rendered"), Duration.ofMillis(1));
      assertThat(usage.flush()).isTrue();
      pg.stop();
      try {
        // Three rows fit; the uses of a fourth and fifth row are dropped; more uses of a row
        // kept still count.
        for (String prompt : List.of("a", "b", "c", "d", "e")) {
          usage.add(use(prompt, "v", "rendered"), Duration.ofMillis(1));
          usage.add(use(prompt, "v", "rendered"), Duration.ofMillis(1));
        }
        assertThat(usage.flush()).isFalse();
        assertThat(usage.flush()).isFalse(); // put back after each failed write
        assertThat(usage.dropped()).isEqualTo(4);
      } finally {
        pg.start();
      }
      assertThat(usage.flush()).isTrue();
      List<UsageReport.Row> rows =
          UsageReport.read(database, Instant.now().minus(Duration.ofHours(1)), null);
      assertThat(rows)
          .extracting(r -> r.prompt() + "=" + r.uses())
          .containsExactly("a=3", "b=2", "c=2");
      assertThat(Set.copyOf(rows.stream().map(UsageReport.Row::label).toList()))
          .containsExactly("latest");
      // Once when the outage is met, once when it ends, with the count lost.
      assertThat(logged).hasSize(2);
      assertThat(logged.get(0)).startsWith("WARNING usage counts cannot be written to the store");
      assertThat(logged.get(1))
          .startsWith("WARNING usage counts written to the store")
          .contains("again; 4 use(s) were dropped while it was away");
    } finally {
      log.removeHandler(handler);
    }
  }

  @Test
  void clientsNamingThemselvesAnewAddABoundedNumberOfRows() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    Random random = new Random(36);
    Instant minute = Instant.parse("2026-12-01T10:00:00Z");
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreUsage usage = StoreUsage.start(database, 10_000, NEVER)) {
      for (int i = 0; i < 3_000; i++) {
        String name = "client-" + Long.toHexString(random.nextLong()) + "\u0007\u00e9".repeat(50);
        String version = random.nextInt(100) + "." + random.nextInt(100) + "." + random.nextInt();
        usage.add(
            minute.plusMillis(i),
            new StoreUsage.Use("hello", "0123456789ab", "latest", name, version, "rendered"),
            Duration.ofMillis(1));
      }
      usage.add(minute, use("hello", "0123456789ab", "rendered"), Duration.ofMillis(1));
      assertThat(usage.flush()).isTrue();
      try (Connection c = database.connection();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery(
              "SELECT count(*), sum(uses), max(length(client)), max(length(client_version)),"
                  + " sum(uses) FILTER (WHERE client = 'other') FROM prompt_usage")) {
        assertThat(r.next()).isTrue();
        // Twenty clients of the day, and one row for every client beyond them.
        assertThat(r.getLong(1)).isEqualTo(21);
        assertThat(r.getLong(2)).isEqualTo(3_001);
        assertThat(r.getInt(3)).isLessThanOrEqualTo(64);
        assertThat(r.getInt(4)).isLessThanOrEqualTo(5);
        assertThat(r.getLong(5)).isEqualTo(3_001 - 20);
      }
      // A client first seen after the twentieth of the day counts as other, however well known.
      assertThat(UsageReport.uses(database, minute.minus(Duration.ofHours(1)), "hello"))
          .extracting(UsageReport.Use::client)
          .contains("other")
          .doesNotContain("claude-code");
    }
  }

  @Test
  void rowsOlderThanTheRetentionAreDeleted() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    Instant now = Instant.now();
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreUsage usage = StoreUsage.start(database, 1000, NEVER, Duration.ofDays(30))) {
      usage.add(now.minus(Duration.ofDays(31)), use("old", "v", "rendered"), Duration.ZERO);
      usage.add(now.minus(Duration.ofDays(29)), use("kept", "v", "rendered"), Duration.ZERO);
      usage.add(now, use("new", "v", "rendered"), Duration.ZERO);
      assertThat(usage.flush()).isTrue();
      assertThat(UsageReport.read(database, now.minus(Duration.ofDays(400)), null))
          .extracting(UsageReport.Row::prompt)
          .containsExactlyInAnyOrder("old", "kept", "new");
      assertThat(usage.expire(now)).isEqualTo(1);
      assertThat(UsageReport.read(database, now.minus(Duration.ofDays(400)), null))
          .extracting(UsageReport.Row::prompt)
          .containsExactlyInAnyOrder("kept", "new");
      assertThat(usage.expire(now)).isZero();
      Assertions.assertThatThrownBy(() -> StoreUsage.start(database, 1, NEVER, Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("usage retention must be positive, not PT0S");
    }
  }

  @Test
  void aClientsTextsAreKeptShortAndPrintable() {
    StoreUsage.Use u = new StoreUsage.Use(
        "p", "v", "latest", "  my\tclient\u00e9 " + "x".repeat(100), "v2.1.0-beta+7", "rendered");
    assertThat(u.client()).isEqualTo("my_client_ " + "x".repeat(53));
    assertThat(u.clientVersion()).isEqualTo("2.1");
    assertThat(new StoreUsage.Use("p", "v", "l", "", "nightly-build-of-today", "error")
            .clientVersion())
        .isEqualTo("nightly-build-of");
    assertThat(new StoreUsage.Use("p", "v", "l", "", "7", "error").clientVersion())
        .isEqualTo("7");
    assertThat(new StoreUsage.Use("p", "v", "l", "", "", "error").clientVersion())
        .isEmpty();
  }
}
