package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Labels in a real PostgreSQL store: set, list, remove, moves recorded, {@code publish --label},
 * refusals.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(60)
class StoreLabelsTest {
  private StoreUrl url;

  @BeforeEach
  void database() throws Exception {
    url = TestPostgres.get().newDatabase();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void setListRemoveRecordEveryMoveAndNotify() throws Exception {
    try (PromptStore store = PromptStore.open(url);
        StoreDatabase database = StoreDatabase.open(url)) {
      store.publish(Map.of("hello.prompt.md", utf8("v1\n")), "alice");
      store.publish(Map.of("hello.prompt.md", utf8("v2\n")), "alice");
      LinkedBlockingQueue<String> heard = new LinkedBlockingQueue<>();
      CountDownLatch listening = new CountDownLatch(1);
      try (AutoCloseable l = database.listen(LabelQueries.CHANNEL, new ChannelListener() {
        @Override
        public void listening(boolean again) {
          listening.countDown();
        }

        @Override
        public void notified(String payload) {
          heard.add(payload);
        }
      })) {
        assertThat(listening.await(20, TimeUnit.SECONDS)).isTrue();
        StoreLabels labels = store.labels();
        assertThat(labels.set("hello", 1, "staging", "bob"))
            .extracting(LabelMove::path, LabelMove::from, LabelMove::to, LabelMove::author)
            .containsExactly(tuple("hello.prompt.md", 0, 1, "bob"));
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("staging");
        assertThat(labels.list("hello"))
            .containsExactly(new FileLabel("hello.prompt.md", "staging", 1));
        assertThat(labels.set("hello", 2, "staging", "carol")).hasSize(1);
        assertThat(labels.set("hello", 2, "staging", "carol"))
            .as("already there")
            .isEmpty();
        labels.set("hello.prompt.md", 2, "production", "carol");
        assertThat(labels.list(null))
            .extracting(FileLabel::label, FileLabel::version)
            .containsExactly(tuple("production", 2), tuple("staging", 2));
        assertThat(labels.remove("hello", "staging", "dave"))
            .extracting(LabelMove::from, LabelMove::to)
            .containsExactly(tuple(2, 0));
        assertThat(labels.list("hello"))
            .containsExactly(new FileLabel("hello.prompt.md", "production", 2));
        assertThat(labels.moves("hello"))
            .extracting(LabelMove::label, LabelMove::from, LabelMove::to, LabelMove::author)
            .containsExactly(
                tuple("staging", 0, 1, "bob"),
                tuple("staging", 1, 2, "carol"),
                tuple("production", 0, 2, "carol"),
                tuple("staging", 2, 0, "dave"));
        assertThat(labels.moves("hello"))
            .allSatisfy(m -> assertThat(m.libraryVersion()).isEqualTo(2));
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("staging");
      }
    }
  }

  @Test
  void badInputIsRefusedAndWritesNothing() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(
          Map.of("hello.prompt.md", utf8("v1\n"), "gone.prompt.md", utf8("bye\n")), "alice");
      store.publish(Map.of("hello.prompt.md", utf8("v1\n")), "alice"); // deletes gone
      StoreLabels labels = store.labels();
      assertThatThrownBy(() -> labels.set("hello", 1, "latest", "bob"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.REFUSED))
          .hasMessageContaining("'latest' always means each file's newest version");
      assertThatThrownBy(() -> labels.remove("hello", "latest", "bob"))
          .hasMessageContaining("cannot be set or removed");
      for (String bad : List.of("Staging", "-x", "", "a b", "x".repeat(65), "prod/1")) {
        assertThatThrownBy(() -> labels.set("hello", 1, bad, "bob"))
            .as(bad)
            .hasMessageContaining("is not a label name");
      }
      assertThatThrownBy(() -> labels.set("nope", 1, "staging", "bob"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND))
          .hasMessageContaining("names 'nope'");
      assertThatThrownBy(() -> labels.set("hello", 9, "staging", "bob"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND))
          .hasMessageContaining("'hello.prompt.md' has no version 9");
      assertThatThrownBy(() -> labels.set("gone", 2, "staging", "bob"))
          .hasMessageContaining("version 2 of 'gone.prompt.md' deleted the file");
      assertThatThrownBy(() -> labels.remove("hello", "staging", "bob"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND))
          .hasMessageContaining("'hello' has no label 'staging'");
      assertThatThrownBy(() -> store.publish(Map.of("x.prompt.md", utf8("x")), "bob", "Latest"))
          .hasMessageContaining("not a label name");
      assertThat(labels.list(null)).isEmpty();
      assertThat(labels.moves("hello")).isEmpty();
      assertThat(labels.moves("gone")).isEmpty();
      assertThat(store.libraryVersion()).isEqualTo(2);
    }
  }

  @Test
  void publishWithALabelPointsItAtEveryFileInTheSameTransaction() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(
          Map.of("a.prompt.md", utf8("a1\n"), "b.prompt.md", utf8("b1\n")), "alice", "staging");
      StoreLabels labels = store.labels();
      assertThat(labels.list(null))
          .containsExactly(
              new FileLabel("a.prompt.md", "staging", 1),
              new FileLabel("b.prompt.md", "staging", 1));
      // a changes, b is deleted, c is new: staging follows all three.
      store.publish(
          Map.of("a.prompt.md", utf8("a2\n"), "c.prompt.md", utf8("c1\n")), "bob", "staging");
      assertThat(labels.list(null))
          .containsExactly(
              new FileLabel("a.prompt.md", "staging", 2),
              new FileLabel("c.prompt.md", "staging", 1));
      assertThat(labels.moves("b"))
          .extracting(LabelMove::from, LabelMove::to, LabelMove::author, LabelMove::libraryVersion)
          .containsExactly(tuple(0, 1, "alice", 1L), tuple(1, 0, "bob", 2L));
      // Nothing to publish: the label still moves to what the store holds.
      Published same = store.publish(
          Map.of("a.prompt.md", utf8("a2\n"), "c.prompt.md", utf8("c1\n")), "carol", "production");
      assertThat(same.nothing()).isTrue();
      assertThat(labels.list("a")).extracting(FileLabel::label).contains("production");

      // A publish that loses a race moves no label.
      store.afterRead = () -> {
        store.afterRead = null;
        try {
          store.publish(Map.of("a.prompt.md", utf8("a3\n")), "racer");
        } catch (StoreException e) {
          throw new IllegalStateException(e);
        }
      };
      assertThatThrownBy(
              () -> store.publish(Map.of("a.prompt.md", utf8("a4\n")), "dave", "staging"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT));
      assertThat(labels.list("a"))
          .containsExactly(
              new FileLabel("a.prompt.md", "production", 2),
              new FileLabel("a.prompt.md", "staging", 2));
      assertThat(labels.moves("a")).extracting(LabelMove::author).doesNotContain("dave");
    }
  }

  @Test
  void aSkillIsNamedByItsFolderAndLabelledWhole() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(
          Map.of(
              "ops/incident-review/SKILL.md", utf8("---\nname: incident-review\n---\nReview.\n"),
              "ops/incident-review/notes.md", utf8("notes\n"),
              "ops/other.prompt.md", utf8("other\n")),
          "alice");
      assertThat(store.labels().set("ops/incident-review", 1, "staging", "bob"))
          .extracting(LabelMove::path)
          .containsExactly("ops/incident-review/SKILL.md", "ops/incident-review/notes.md");
      assertThat(store.labels().list("ops/incident-review")).hasSize(2);
    }
  }

  @Test
  void aProtectedLabelMovesOnlyWithItsScopeOrForATrustedCaller() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("hello.prompt.md", utf8("v1\n")), "alice");
      StoreLabels labels = store.labels();
      labels.protect("production", "promote:production", "alice");
      assertThat(labels.protections())
          .containsExactly(Map.entry("production", "promote:production"));
      assertThatThrownBy(() -> labels.set("hello", 1, "production", "api:bob", Set.of("prompts")))
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "the label 'production' is protected: moving it needs the scope 'promote:production'")
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.FORBIDDEN);
      assertThat(labels.list(null)).isEmpty();
      assertThat(labels.set("hello", 1, "staging", "api:bob", Set.of()))
          .hasSize(1); // an unprotected label needs no scope
      assertThat(labels.set("hello", 1, "production", "api:carol", Set.of("promote:production")))
          .extracting(LabelMove::author)
          .containsExactly("api:carol");
      labels.protect("production", "release", "alice"); // again: the scope is replaced
      assertThat(labels.protections()).containsExactly(Map.entry("production", "release"));
      labels.unprotect("production");
      assertThat(labels.protections()).isEmpty();
      assertThatThrownBy(() -> labels.unprotect("production"))
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.NOT_FOUND);
      assertThatThrownBy(() -> labels.protect("production", "two words", "alice"))
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.REFUSED);
    }
  }

  @Test
  void aPromotionIsRecordedOnceNotifiesOnceAndAReviewRefusesItWhole() throws Exception {
    try (PromptStore store = PromptStore.open(url);
        StoreDatabase database = StoreDatabase.open(url)) {
      Map<String, byte[]> files = new java.util.TreeMap<>();
      for (int i = 1; i <= 12; i++) {
        files.put("p" + i + ".prompt.md", utf8("v1 of " + i + "\n"));
      }
      store.publish(files, "alice", "staging");
      StoreLabels labels = store.labels();
      labels.set("p12", 1, "production", "alice");
      LinkedBlockingQueue<String> heard = new LinkedBlockingQueue<>();
      CountDownLatch listening = new CountDownLatch(1);
      try (AutoCloseable l = database.listen(LabelQueries.CHANNEL, new ChannelListener() {
        @Override
        public void listening(boolean again) {
          listening.countDown();
        }

        @Override
        public void notified(String payload) {
          heard.add(payload);
        }
      })) {
        assertThat(listening.await(20, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> labels.promoteFiles(
                "staging", "production", null, "bob", null, null, false, moves -> {
                  throw new StoreException(StoreException.Kind.FORBIDDEN, "not these");
                }))
            .hasMessage("not these");
        assertThat(labels.list(null))
            .filteredOn(f -> f.label().equals("production"))
            .hasSize(1);
        assertThat(labels.promotions(null)).isEmpty();

        Promotion dry = labels.promote("staging", "production", List.of(), "bob", null, null, true);
        assertThat(dry.id()).isZero();
        assertThat(dry.moves()).hasSize(11);
        assertThat(labels.promotions(null)).isEmpty();

        Promotion done =
            labels.promote("staging", "production", List.of(), "bob", null, null, false);
        assertThat(done.id()).isPositive();
        assertThat(done.moves())
            .hasSize(11)
            .allSatisfy(m -> assertThat(m.promotion()).isEqualTo(done.id()))
            .extracting(Promotion.Change::of)
            .containsOnly(Promotion.Change.ADDED);
        // The moves in one transaction: one NOTIFY, then the next move's.
        labels.set("p1", 1, "canary", "bob");
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("production");
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("canary");
        assertThat(heard).isEmpty();

        assertThat(labels.promotions(null)).singleElement().satisfies(p -> {
          assertThat(p.id()).isEqualTo(done.id());
          assertThat(p.from()).isEqualTo("staging");
          assertThat(p.to()).isEqualTo("production");
          assertThat(p.author()).isEqualTo("bob");
          assertThat(p.moves())
              .extracting(LabelMove::path)
              .hasSize(11)
              .doesNotContain("p12.prompt.md");
        });
        assertThat(labels.promotions("p3")).hasSize(1);
        assertThat(labels.promotions("p12")).isEmpty();
        assertThat(labels.moves("p3"))
            .extracting(LabelMove::label, LabelMove::promotion)
            .containsExactly(tuple("staging", 0L), tuple("production", done.id()));
        Promotion again =
            labels.promote("staging", "production", List.of(), "bob", null, null, false);
        assertThat(again.moves()).isEmpty();
        assertThat(again.id()).as("nothing moved: not recorded").isZero();
        assertThat(labels.promotions(null)).hasSize(1);
      }
    }
  }

  @Test
  void aRevertPutsBackWhatAPromotionMovedOnceAndIsRefusedWholeWhenALabelMovedSince()
      throws Exception {
    try (PromptStore store = PromptStore.open(url);
        StoreDatabase database = StoreDatabase.open(url)) {
      Map<String, byte[]> files = new java.util.TreeMap<>();
      for (int i = 1; i <= 12; i++) {
        files.put("p" + i + ".prompt.md", utf8("v1 of " + i + "\n"));
      }
      store.publish(files, "alice");
      StoreLabels labels = store.labels();
      for (int i = 1; i <= 11; i++) {
        labels.set("p" + i, 1, "production", "alice");
      }
      files.replaceAll((path, content) -> utf8("v2 of " + path + "\n"));
      store.publish(files, "alice", "staging");
      labels.remove("p11", "staging", "alice");
      // production: 1 on p1-p11, none on p12; staging: 2 on all but p11.
      List<FileLabel> before = labels.list(null);
      Promotion promoted =
          labels.promote("staging", "production", List.of(), "bob", null, null, false);
      assertThat(promoted.moves())
          .extracting(Promotion.Change::of)
          .containsOnly(Promotion.Change.CHANGED, Promotion.Change.ADDED, Promotion.Change.REMOVED)
          .hasSize(12);
      List<FileLabel> after = labels.list(null);
      LinkedBlockingQueue<String> heard = new LinkedBlockingQueue<>();
      CountDownLatch listening = new CountDownLatch(1);
      try (AutoCloseable l = database.listen(LabelQueries.CHANNEL, new ChannelListener() {
        @Override
        public void listening(boolean again) {
          listening.countDown();
        }

        @Override
        public void notified(String payload) {
          heard.add(payload);
        }
      })) {
        assertThat(listening.await(20, TimeUnit.SECONDS)).isTrue();
        Promotion dry = labels.revert(promoted.id(), "carol", null, null, true, moves -> {});
        assertThat(dry.id()).isZero();
        assertThat(dry.moves()).hasSize(12);
        assertThat(labels.list(null)).isEqualTo(after);

        Promotion reverted = labels.revert(promoted.id(), "carol", null, null, false, moves -> {});
        assertThat(reverted.id()).isGreaterThan(promoted.id());
        assertThat(reverted.reverts()).isEqualTo(promoted.id());
        assertThat(reverted.from()).isEqualTo("staging");
        assertThat(reverted.to()).isEqualTo("production");
        assertThat(reverted.moves())
            .extracting(LabelMove::path, LabelMove::from, LabelMove::to)
            .containsExactlyInAnyOrderElementsOf(promoted.moves().stream()
                .map(m -> tuple(m.path(), m.to(), m.from()))
                .toList());
        assertThat(labels.list(null))
            .as("every pointer as before the promotion")
            .isEqualTo(before);
        // One NOTIFY for the revert's 12 moves, then the next move's.
        labels.set("p1", 1, "canary", "bob");
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("production");
        assertThat(heard.poll(20, TimeUnit.SECONDS)).isEqualTo("canary");
        assertThat(heard).isEmpty();
        assertThat(labels.promotions(null).getFirst().reverts()).isEqualTo(promoted.id());

        // A revert is a promotion: reverting it promotes again.
        Promotion again = labels.revert(reverted.id(), "carol", null, null, false, moves -> {});
        assertThat(again.reverts()).isEqualTo(reverted.id());
        assertThat(labels.list(null).stream()
                .filter(f -> !f.label().equals("canary"))
                .toList())
            .isEqualTo(after);

        // Someone moved production on two files since: refused whole, naming them.
        labels.set("p5", 1, "production", "dave");
        labels.remove("p12", "production", "dave");
        List<FileLabel> moved = labels.list(null);
        int recorded = labels.promotions(null).size();
        heard.clear();
        assertThatThrownBy(() -> labels.revert(again.id(), "carol", null, null, false, m -> {}))
            .isInstanceOf(StoreException.class)
            .hasMessage("cannot revert promotion #" + again.id() + ": 'production' moved since on"
                + " p12.prompt.md, p5.prompt.md (see promptd history --store); no label was moved")
            .extracting(e -> ((StoreException) e).kind())
            .isEqualTo(StoreException.Kind.CONFLICT);
        assertThat(labels.list(null)).isEqualTo(moved);
        assertThat(labels.promotions(null)).hasSize(recorded);

        assertThatThrownBy(() -> labels.revert(999, "carol", null, null, false, m -> {}))
            .hasMessage("there is no promotion #999 (see promptd history --store)")
            .extracting(e -> ((StoreException) e).kind())
            .isEqualTo(StoreException.Kind.NOT_FOUND);

        labels.protect("production", "release", "alice");
        assertThatThrownBy(
                () -> labels.revert(promoted.id(), "api:x", Set.of(), null, false, m -> {}))
            .extracting(e -> ((StoreException) e).kind())
            .isEqualTo(StoreException.Kind.FORBIDDEN);
        assertThat(labels.list(null)).isEqualTo(moved);
      }
    }
  }
}
