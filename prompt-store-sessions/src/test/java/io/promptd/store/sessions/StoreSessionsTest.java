package io.promptd.store.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.SessionStore;
import io.promptd.mcp.http.SessionStore.Entry;
import io.promptd.mcp.http.testing.SessionStoreContract;
import io.promptd.store.StoreUrl;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link StoreSessions} on a real PostgreSQL: the session store contract, and what two replicas
 * share.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(90)
class StoreSessionsTest extends SessionStoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final List<StoreSessions> opened = new ArrayList<>();

  @Override
  protected SessionStore store() throws Exception {
    return open(TestPostgres.get().newDatabase());
  }

  /**
   * The sessions of {@code url}, once they listen: {@code open} waits only 3 s for the database and
   * its migrations, then goes on without it, and on a loaded machine a fresh database can take
   * longer (a first {@code get} then found no table and vouched for the key from memory).
   */
  private StoreSessions open(StoreUrl url) {
    StoreSessions s = StoreSessions.open(url);
    opened.add(s);
    Poll.await(
        Duration.ofSeconds(60),
        Duration.ofMillis(20),
        "the sessions listen on " + url,
        s::listening);
    return s;
  }

  @AfterEach
  void close() {
    opened.forEach(StoreSessions::close);
  }

  @Test
  void aChangeOnOneReplicaIsHeardAndSeenOnAnother() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    StoreSessions a = open(url);
    StoreSessions b = open(url);
    List<String> heardOnB = new CopyOnWriteArrayList<>();
    try (AutoCloseable unused = b.onChange(heardOnB::add)) {
      assertThat(a.create("k", new Entry("s0", T0, false))).isTrue();
      assertThat(b.get("k")).hasValue(new Entry("s0", T0, false));
      assertThat(a.update("k", "s1", T0.plusSeconds(1))).isTrue();
      awaitSize(heardOnB, 1);
      assertThat(b.get("k")).hasValue(new Entry("s1", T0.plusSeconds(1), false));
      assertThat(b.end("k")).isTrue();
      assertThat(a.end("k")).isFalse();
      awaitSize(heardOnB, 2);
      assertThat(heardOnB).containsExactly("k", "k");
      assertThat(a.get("k")).hasValue(new Entry("s1", T0.plusSeconds(1), true));
      // A use on one replica keeps the session alive for the other's expiry.
      a.create("used", new Entry("", T0, false));
      assertThat(a.touch("used", T0.plusSeconds(20))).isTrue();
      assertThat(b.expire(T0.plusSeconds(10))).isEqualTo(1); // "k", last used at T0 + 1 s
      assertThat(a.get("k")).isEmpty();
      assertThat(a.get("used")).isPresent();
    }
  }

  @Test
  void replicasShareOneSecretCreatedOnce() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    StoreSessions a = open(url);
    StoreSessions b = open(url);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<byte[]>> asked = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        StoreSessions s = i % 2 == 0 ? a : b;
        asked.add(pool.submit(s::secret));
      }
      byte[] first = asked.get(0).get(30, TimeUnit.SECONDS);
      assertThat(first).hasSize(32);
      for (Future<byte[]> f : asked) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(first);
      }
      assertThat(open(url).secret()).isEqualTo(first);
      assertThat(open(TestPostgres.get().newDatabase()).secret()).isNotEqualTo(first);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDatabaseOutageLeavesSessionsServedAndTheirChangesAreWrittenWhenItIsBack() throws Exception {
    TestPostgres pg = TestPostgres.get();
    StoreUrl url = pg.newDatabase();
    StoreSessions a = open(url);
    a.create("known", new Entry("s0", T0, false));
    a.create("ended", new Entry("s0", T0, false));
    assertThat(a.get("known")).isPresent();
    assertThat(a.get("ended")).isPresent();
    List<String> heardOnA = new CopyOnWriteArrayList<>();
    try (AutoCloseable unused = a.onChange(heardOnA::add)) {
      pg.stop();
      try {
        await(() -> !a.listening());
        // Away: what A knew goes on, a session it never saw is trusted (its id is signed), nothing
        // throws.
        assertThat(a.get("known")).hasValue(new Entry("s0", T0, false));
        assertThat(a.get("never-seen")).map(Entry::ended).hasValue(false);
        assertThat(a.update("known", "s1", T0.plusSeconds(5))).isTrue();
        assertThat(a.end("ended")).isTrue();
        assertThat(a.create("new", new Entry("n0", T0, false))).isTrue();
        assertThat(a.get("known")).hasValue(new Entry("s1", T0.plusSeconds(5), false));
        assertThat(a.get("ended")).map(Entry::ended).hasValue(true);
      } finally {
        pg.start();
      }
      // Back: the listening connection reconnects and writes A's changes; another replica sees
      // them.
      StoreSessions b = open(url);
      // A's changes are written in no set order: wait for each one asserted.
      await(() -> b.get("new").isPresent()
          && b.get("known").equals(Optional.of(new Entry("s1", T0.plusSeconds(5), false)))
          && b.get("ended").map(Entry::ended).orElse(false));
      assertThat(b.get("known")).hasValue(new Entry("s1", T0.plusSeconds(5), false));
      assertThat(b.get("ended")).map(Entry::ended).hasValue(true);
      assertThat(b.get("new")).hasValue(new Entry("n0", T0, false));
      assertThat(b.get("never-seen")).isEmpty();
      // And A hears of changes made elsewhere again.
      heardOnA.clear();
      b.update("known", "s2", T0.plusSeconds(6));
      await(() -> heardOnA.contains("known"));
      assertThat(heardOnA).contains("known");
    }
  }

  private static void await(BooleanSupplier condition) throws Exception {
    Poll.until(
        Duration.ofSeconds(30),
        Duration.ofMillis(20),
        () -> "a change another replica made heard here",
        condition::getAsBoolean);
    assertThat(condition.getAsBoolean()).isTrue();
  }
}
