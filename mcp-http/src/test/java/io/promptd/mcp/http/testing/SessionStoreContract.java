package io.promptd.mcp.http.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.SessionStore;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStore} must do: a test class per implementation extends this one (the
 * in-memory store here, the PostgreSQL one in prompt-store-sessions, through this module's
 * test-jar). Listeners may be told later than the change (a shared store hears of it from its
 * database), so the checks on them wait.
 */
@SuppressWarnings("exports") // public for prompt-store-sessions' tests, which run on the class path
public abstract class SessionStoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** A new, empty store for one test. */
  protected abstract SessionStore store() throws Exception;

  @Test
  public void entriesAreCreatedOnceAndUpdatedWhileLive() throws Exception {
    SessionStore store = store();
    assertThat(store.get("k")).isEmpty();
    assertThat(store.create("k", new SessionStore.Entry("s0", T0, false))).isTrue();
    assertThat(store.create("k", new SessionStore.Entry("other", T0, false))).isFalse();
    assertThat(store.get("k")).hasValue(new SessionStore.Entry("s0", T0, false));
    assertThat(store.update("k", "s1", T0.plusSeconds(1))).isTrue();
    assertThat(store.touch("k", T0.plusSeconds(2))).isTrue();
    assertThat(store.get("k")).hasValue(new SessionStore.Entry("s1", T0.plusSeconds(2), false));
    assertThat(store.update("missing", "s", T0)).isFalse();
    assertThat(store.touch("missing", T0)).isFalse();
    assertThat(store.get("missing")).isEmpty();
  }

  @Test
  public void anEndedEntryStaysEnded() throws Exception {
    SessionStore store = store();
    store.create("k", new SessionStore.Entry("s0", T0, false));
    assertThat(store.end("k")).isTrue();
    assertThat(store.end("k")).isFalse();
    assertThat(store.end("missing")).isFalse();
    assertThat(store.update("k", "s1", T0.plusSeconds(1))).isFalse();
    assertThat(store.touch("k", T0.plusSeconds(1))).isFalse();
    assertThat(store.create("k", new SessionStore.Entry("s2", T0, false))).isFalse();
    assertThat(store.get("k")).hasValue(new SessionStore.Entry("s0", T0, true));
  }

  @Test
  public void expiryRemovesEntriesLastUsedBeforeTheCutoff() throws Exception {
    SessionStore store = store();
    store.create("old", new SessionStore.Entry("", T0, false));
    store.create("ended", new SessionStore.Entry("", T0, true));
    store.create("new", new SessionStore.Entry("", T0.plusSeconds(10), false));
    assertThat(store.expire(T0.plusSeconds(5))).isEqualTo(2);
    assertThat(store.get("old")).isEmpty();
    assertThat(store.get("ended")).isEmpty();
    assertThat(store.get("new")).isPresent();
  }

  @Test
  public void listenersHearOfStateChangesAndEndsButNotOfUse() throws Exception {
    SessionStore store = store();
    List<String> heard = new CopyOnWriteArrayList<>();
    store.create("k", new SessionStore.Entry("s0", T0, false));
    try (AutoCloseable unused = store.onChange(heard::add)) {
      store.touch("k", T0.plusSeconds(1));
      store.update("k", "s1", T0.plusSeconds(2));
      store.create("k3", new SessionStore.Entry("s0", T0, false));
      store.end("k");
      store.end("k");
      store.end("k3");
      awaitSize(heard, 3);
    }
    store.create("k2", new SessionStore.Entry("s0", T0, false));
    store.update("k2", "s1", T0);
    // k3's end is heard last: whatever the touch or the second end of k would have told came before
    // it.
    assertThat(heard).containsExactly("k", "k", "k3");
  }

  /** Waits up to 10 s until {@code list} holds {@code size} items. */
  protected static void awaitSize(List<?> list, int size) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (list.size() < size && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(list).hasSizeGreaterThanOrEqualTo(size);
  }
}
