package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStore} must do, checked on the in-memory one; a shared store (PostgreSQL) should pass the
 * same checks.
 */
class MemorySessionStoreTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final SessionStore store = SessionStore.inMemory();

  @Test
  void entriesAreCreatedOnceAndUpdatedWhileLive() {
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
  void anEndedEntryStaysEnded() {
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
  void expiryRemovesEntriesLastUsedBeforeTheCutoff() {
    store.create("old", new SessionStore.Entry("", T0, false));
    store.create("ended", new SessionStore.Entry("", T0, true));
    store.create("new", new SessionStore.Entry("", T0.plusSeconds(10), false));
    assertThat(store.expire(T0.plusSeconds(5))).isEqualTo(2);
    assertThat(store.get("old")).isEmpty();
    assertThat(store.get("ended")).isEmpty();
    assertThat(store.get("new")).isPresent();
  }

  @Test
  void listenersHearOfStateChangesAndEndsButNotOfUse() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    store.create("k", new SessionStore.Entry("s0", T0, false));
    try (AutoCloseable unused = store.onChange(heard::add)) {
      store.touch("k", T0.plusSeconds(1));
      store.update("k", "s1", T0.plusSeconds(2));
      store.end("k");
      store.end("k");
    }
    store.create("k2", new SessionStore.Entry("s0", T0, false));
    store.update("k2", "s1", T0);
    assertThat(heard).containsExactly("k", "k");
  }
}
