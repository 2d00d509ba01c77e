package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.store.testing.TestPostgres;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(60)
class PromptStoreTest {
  @TempDir
  Path dir;

  private StoreUrl url;

  @BeforeEach
  void database() throws Exception {
    url = TestPostgres.get().newDatabase();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private void write(String path, String text) throws Exception {
    Path file = dir.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  /**
   * The versions the start-up check looks for are the migrations there are (a new one must update
   * them).
   */
  @Test
  void theMigrationsConstantNamesTheMigrationFiles() throws Exception {
    URL folder = PromptStore.class.getClassLoader().getResource("promptd-store-migration");
    assertThat(folder).isNotNull();
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      List<String> versions = files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.matches("V\\d+__.*\\.sql"))
          .map(n -> n.substring(1, n.indexOf("__")))
          .sorted(Comparator.comparingInt(Integer::parseInt))
          .toList();
      assertThat(Schema.MIGRATIONS).isEqualTo(versions);
    }
  }

  @Test
  void urlsParseAndNeverShowThePassword() {
    StoreUrl u =
        StoreUrl.parse("postgresql://alice:p%40ss-Secret@db.example:6543/prompts?sslmode=require");
    assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/prompts?sslmode=require");
    assertThat(u.user()).isEqualTo("alice");
    assertThat(u.password()).isEqualTo("p@ss-Secret");
    assertThat(u.toString())
        .isEqualTo("postgresql://alice@db.example:6543/prompts?sslmode=require")
        .doesNotContain("Secret");
    StoreUrl j =
        StoreUrl.parse("jdbc:postgresql://h/db?user=bob&password=Secret2&ApplicationName=x");
    assertThat(j.jdbcUrl()).isEqualTo("jdbc:postgresql://h/db?ApplicationName=x");
    assertThat(j.user()).isEqualTo("bob");
    assertThat(j.toString()).doesNotContain("Secret2");
    assertThatThrownBy(() -> StoreUrl.parse("mysql://u:Secret3@h/db"))
        .hasMessageNotContaining("Secret3")
        .hasMessageContaining("scheme 'mysql'");
    assertThatThrownBy(() -> StoreUrl.parse("postgresql://u:Secret4@h"))
        .hasMessageNotContaining("Secret4")
        .hasMessageContaining("no database");
    assertThatThrownBy(() -> StoreUrl.parse("postgresql://u:Sec ret5@h/db"))
        .hasMessageNotContaining("ret5");
  }

  @Test
  void migrationsApplyOnAnEmptyDatabaseAndAgainDoNothing() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      assertThat(store.libraryVersion()).isZero();
    }
    try (PromptStore store = PromptStore.open(url)) {
      assertThat(store.libraryVersion()).isZero();
      assertThat(store.snapshot().files()).isEmpty();
    }
  }

  @Test
  void publishAddsChangesDeletesAndASecondRunChangesNothing() throws Exception {
    write("a.prompt.md", "Say {{x}}.\n");
    write("b.prompt.md", "B\n");
    write("team/c.prompt.md", "C\n");
    write("node_modules/x.prompt.md", "skipped\n");
    write(".hidden/y.prompt.md", "skipped\n");
    write(".claude/commands/fix.md", "Fix it\n");
    try (PromptStore store = PromptStore.open(url)) {
      Published first = FolderFiles.publish(store, dir, "alice", true);
      assertThat(first).isEqualTo(new Published(1, 4, 0, 0, 4));
      assertThat(store.snapshot().files().keySet())
          .containsExactly(
              ".claude/commands/fix.md", "a.prompt.md", "b.prompt.md", "team/c.prompt.md");

      Published again = FolderFiles.publish(store, dir, "alice", true);
      assertThat(again.nothing()).isTrue();
      assertThat(again).isEqualTo(new Published(1, 0, 0, 0, 4));

      write("b.prompt.md", "B changed\n");
      Files.delete(dir.resolve("team/c.prompt.md"));
      write("d.prompt.md", "D\n");
      Published second = FolderFiles.publish(store, dir, "bob", true);
      assertThat(second).isEqualTo(new Published(2, 1, 1, 1, 4));
      assertThat(new String(store.snapshot().files().get("b.prompt.md"), StandardCharsets.UTF_8))
          .isEqualTo("B changed\n");
      assertThat(store.snapshot().files()).doesNotContainKey("team/c.prompt.md");
      assertThat(store.history("c"))
          .extracting(FileVersion::version, FileVersion::deleted, FileVersion::author)
          .containsExactly(Tuple.tuple(2, true, "bob"), Tuple.tuple(1, false, "alice"));
    }
  }

  @Test
  void aPublishWithErrorsIsRefusedUnlessAllowed() throws Exception {
    write("good.prompt.md", "Fine\n");
    write("bad.prompt.md", "---\nname: [unclosed\n---\nBody {{x}}\n");
    try (PromptStore store = PromptStore.open(url)) {
      assertThatThrownBy(() -> FolderFiles.publish(store, dir, "alice", false))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("nothing was published")
          .hasMessageMatching("(?s).*bad\\.prompt\\.md:\\d+.*")
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.REFUSED);
      assertThat(store.libraryVersion()).isZero();
      assertThat(FolderFiles.publish(store, dir, "alice", true).files()).isEqualTo(2);
    }
  }

  @Test
  void twoConcurrentPublishesGiveOneConflictAndLoseNoUpdate() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("base.prompt.md", utf8("base\n")), "setup");
      CyclicBarrier bothRead = new CyclicBarrier(2);
      store.afterRead = () -> {
        try {
          bothRead.await(20, TimeUnit.SECONDS);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      };
      List<Future<Published>> results = new ArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
        results.add(pool.submit(() -> store.publish(
            Map.of("base.prompt.md", utf8("base\n"), "one.prompt.md", utf8("1\n")), "one")));
        results.add(pool.submit(() -> store.publish(
            Map.of("base.prompt.md", utf8("base\n"), "two.prompt.md", utf8("2\n")), "two")));
      }
      store.afterRead = null;
      List<Published> ok = new ArrayList<>();
      List<StoreException> conflicts = new ArrayList<>();
      for (Future<Published> f : results) {
        try {
          ok.add(f.get());
        } catch (ExecutionException e) {
          conflicts.add((StoreException) e.getCause());
        }
      }
      assertThat(ok).hasSize(1);
      assertThat(conflicts).hasSize(1);
      assertThat(conflicts.getFirst().kind()).isEqualTo(StoreException.Kind.CONFLICT);
      assertThat(conflicts.getFirst())
          .hasMessageContaining("another publish changed the store")
          .hasMessageNotContaining("s3cret");
      assertThat(store.libraryVersion()).isEqualTo(2);
      // The winner's files are all there; the loser wrote nothing, and publishing again (rebased)
      // works.
      assertThat(store.snapshot().files()).hasSize(2);
      Published retry = store.publish(
          Map.of(
              "base.prompt.md",
              utf8("base\n"),
              "one.prompt.md",
              utf8("1\n"),
              "two.prompt.md",
              utf8("2\n")),
          "again");
      assertThat(retry.libraryVersion()).isEqualTo(3);
      assertThat(store.snapshot().files().keySet())
          .containsExactlyInAnyOrder("base.prompt.md", "one.prompt.md", "two.prompt.md");
    }
  }

  @Test
  void historyAndRollbackKeepEveryVersion() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("review.prompt.md", utf8("---\nname: code-review\n---\nv1\n")), "alice");
      store.publish(Map.of("review.prompt.md", utf8("---\nname: code-review\n---\nv2\n")), "bob");
      assertThat(store.history("code-review"))
          .extracting(FileVersion::version)
          .containsExactly(2, 1);
      assertThat(store.history("review")).hasSize(2);
      Set<String> paths = store.paths("code-review");
      Published back = store.rollback(paths, 1, "carol");
      assertThat(back).isEqualTo(new Published(3, 0, 1, 0, 1));
      assertThat(
              new String(store.snapshot().files().get("review.prompt.md"), StandardCharsets.UTF_8))
          .endsWith("v1\n");
      List<FileVersion> history = store.history("code-review");
      assertThat(history).extracting(FileVersion::version).containsExactly(3, 2, 1);
      assertThat(history.getFirst().sha256())
          .isEqualTo(history.getLast().sha256())
          .hasSize(64);
      assertThat(history.getFirst().author()).isEqualTo("carol");
      assertThatThrownBy(() -> store.rollback(paths, 9, "carol"))
          .hasMessageContaining("has no version 9");
      assertThatThrownBy(() -> store.history("nope")).hasMessageContaining("names 'nope'");
    }
  }

  @Test
  void aPreviewSaysWhatAPublishWouldDoAndWritesNothing() throws Exception {
    write("a.prompt.md", "A\n");
    write("b.prompt.md", "B\n");
    try (PromptStore store = PromptStore.open(url)) {
      Preview first = FolderFiles.preview(store, dir, false);
      assertThat(first)
          .isEqualTo(
              new Preview(1, List.of("a.prompt.md", "b.prompt.md"), List.of(), List.of(), 2));
      assertThat(store.libraryVersion()).isZero();
      FolderFiles.publish(store, dir, "alice", false);
      assertThat(FolderFiles.preview(store, dir, false).nothing()).isTrue();

      write("b.prompt.md", "B changed\n");
      write("c.prompt.md", "C\n");
      Files.delete(dir.resolve("a.prompt.md"));
      assertThat(FolderFiles.preview(store, dir, false))
          .isEqualTo(new Preview(
              2, List.of("c.prompt.md"), List.of("b.prompt.md"), List.of("a.prompt.md"), 2));
      assertThat(store.libraryVersion()).isEqualTo(1);
      assertThat(store.history("b")).hasSize(1);

      write("bad.prompt.md", "---\nname: [unclosed\n---\nBody\n");
      assertThatThrownBy(() -> FolderFiles.preview(store, dir, false))
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.REFUSED);
    }
  }

  @Test
  void aNameTheStoreDoesNotHoldIsNotFound() throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("a.prompt.md", utf8("A\n")), "alice");
      assertThatThrownBy(() -> store.history("nope"))
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.NOT_FOUND);
      assertThatThrownBy(() -> store.paths("nope"))
          .extracting(e -> ((StoreException) e).kind())
          .isEqualTo(StoreException.Kind.NOT_FOUND);
    }
  }
}
