package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.store.testing.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(60)
class StoreLibraryTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final LibraryOptions OPTIONS = LibraryOptions.defaults().withCacheDirectory(null);

  @Test
  void servesTheStoreAndAPublishReachesTheServingLibrary() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(
          Map.of(
              "hello.prompt.md",
              utf8("---\ndescription: Hi\narguments: [name]\n---\nHello {{name}}\n"),
              "team/.hidden/no.prompt.md",
              utf8("not served\n")),
          "alice");
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(serving.library().catalog().all())
            .extracting(d -> d.prompt().name())
            .containsExactly("hello");
        assertThat(serving.version()).isEqualTo(1);

        LinkedBlockingQueue<Long> changes = new LinkedBlockingQueue<>();
        try (AutoCloseable listening = serving
            .library()
            .catalog()
            .onChange(() -> changes.add(serving.library().catalog().version()))) {
          store.publish(
              Map.of("hello.prompt.md", utf8("Hello again\n"), "bye.prompt.md", utf8("Bye\n")),
              "bob");
          assertThat(changes.poll(20, TimeUnit.SECONDS)).isNotNull();
        }
        assertThat(serving.library().catalog().all())
            .extracting(d -> d.prompt().name())
            .containsExactly("bye", "hello");
        assertThat(serving.version()).isEqualTo(2);
      }
    }
  }

  /**
   * A folder's skills, published, are the skills a folder library serves, file for file:
   * {@code .claude/skills} is published with the rest, and so is every file of a skill (nested
   * folders, a hidden file, bytes that are no text, a link to a file in the folder), while hidden
   * folders other than the prompt formats' stay out.
   */
  @Test
  void publishedSkillsAreServedAsTheFolderServesThem(@TempDir Path dir) throws Exception {
    Map<String, byte[]> folder = Map.of(
        "hello.prompt.md", utf8("Hello\n"),
        ".claude/skills/deploy/SKILL.md",
            utf8("---\nname: deploy\ndescription: Ships.\n---\nRun it\n"),
        ".claude/skills/deploy/.env.example", utf8("TOKEN=\n"),
        ".claude/skills/deploy/scripts/run.sh", utf8("#!/bin/sh\necho go\n"),
        "ops/review/SKILL.md", utf8("---\nname: review\ndescription: Reviews.\n---\nRead it\n"),
        "ops/review/references/deep/guide.md", utf8("guide\n"),
        "ops/review/assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xfe, 0},
        ".claude/agents/helper.md", utf8("not published\n"),
        ".codex/prompts/fix.md", utf8("Fix it\n"),
        "team/.hidden/SKILL.md", utf8("---\nname: hidden\ndescription: No.\n---\nNo\n"));
    for (Map.Entry<String, byte[]> f : folder.entrySet()) {
      Path file = dir.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, f.getValue());
    }
    Files.createSymbolicLink(
        dir.resolve("ops/review/references/link.md"), Path.of("deep", "guide.md"));
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url);
        Library local = Library.open(LibrarySource.folders(List.of(dir)), OPTIONS)) {
      FolderFiles.publish(store, dir, "alice", false);
      assertThat(store.snapshot().files().keySet())
          .containsExactlyInAnyOrder(
              "hello.prompt.md",
              ".codex/prompts/fix.md",
              ".claude/skills/deploy/SKILL.md",
              ".claude/skills/deploy/.env.example",
              ".claude/skills/deploy/scripts/run.sh",
              "ops/review/SKILL.md",
              "ops/review/references/deep/guide.md",
              "ops/review/references/link.md",
              "ops/review/assets/logo.png");
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        List<Skill> skills = serving.library().skillProvider().skills();
        assertThat(skills)
            .extracting(Skill::uri)
            .containsExactly("skill://deploy/SKILL.md", "skill://ops/review/SKILL.md");
        assertThat(skills.getFirst().resources())
            .extracting(SkillResource::uri)
            .containsExactlyInAnyOrder(
                "skill://deploy/SKILL.md",
                "skill://deploy/.env.example",
                "skill://deploy/scripts/run.sh");
        assertThat(skills).isEqualTo(local.skillProvider().skills());
      }
    }
  }

  /**
   * A skill at the limits a folder library serves (512 files) with a file as large as the store
   * takes (10 MiB) is published and served whole; a file over 10 MiB, though a skill may hold 16
   * MiB, is refused by name.
   */
  @Test
  void aSkillAtItsLimitsIsPublishedAndAFileOverTheStoresLimitIsRefused(@TempDir Path dir)
      throws Exception {
    Path skill = Files.createDirectories(dir.resolve("big/assets"));
    Files.writeString(
        skill.resolveSibling("SKILL.md"), "---\nname: big\ndescription: Holds much.\n---\nBig\n");
    Files.write(skill.resolve("data.bin"), new byte[(int) FolderFiles.MAX_BYTES]);
    for (int i = 0; i < 510; i++) {
      Files.writeString(
          Files.createDirectories(skill.resolve("n" + i % 7)).resolve("f" + i + ".txt"), "f" + i);
    }
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url);
        Library local = Library.open(LibrarySource.folders(List.of(dir)), OPTIONS)) {
      FolderFiles.publish(store, dir, "alice", false);
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        List<Skill> skills = serving.library().skillProvider().skills();
        assertThat(skills).hasSize(1);
        assertThat(skills.getFirst().resources()).hasSize(512);
        assertThat(skills).isEqualTo(local.skillProvider().skills());
      }
      Files.write(skill.resolve("data.bin"), new byte[(int) FolderFiles.MAX_BYTES + 1]);
      assertThatThrownBy(() -> FolderFiles.publish(store, dir, "bob", false))
          .isInstanceOf(IOException.class)
          .hasMessage("big/assets/data.bin is 10485761 bytes, over the store's limit of 10485760");
      assertThat(store.libraryVersion()).isEqualTo(1);
    }
  }

  @Test
  void aDatabaseRestartKeepsTheSnapshotAndCatchesUpOnReconnect() throws Exception {
    TestPostgres pg = TestPostgres.get();
    StoreUrl url = pg.newDatabase();
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("one.prompt.md", utf8("One\n")), "alice");
    }
    try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
      assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      pg.stop();
      try {
        assertThat(serving.await(() -> !serving.connected(), Duration.ofSeconds(20)))
            .as("the feed noticed the database went away")
            .isTrue();
        // Away: the snapshot is still served.
        assertThat(serving.library().catalog().get("one"))
            .map(PromptDefinition::prompt)
            .isPresent();
        assertThat(serving.loaded()).isTrue();
      } finally {
        pg.start();
      }
      // A publish made while the replica's connection was gone (it may not have reconnected yet).
      try (PromptStore store = PromptStore.open(url)) {
        store.publish(
            Map.of("one.prompt.md", utf8("One\n"), "two.prompt.md", utf8("Two\n")), "bob");
      }
      assertThat(serving.await(() -> serving.taken() >= 2, Duration.ofSeconds(30)))
          .isTrue();
      assertThat(serving.version()).isEqualTo(2);
      assertThat(serving.library().catalog().all())
          .extracting(d -> d.prompt().name())
          .containsExactly("one", "two");
    }
  }

  @Test
  void aStoreThatWentBackInTimeIsLoadedWhole() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("old.prompt.md", utf8("Old\n")), "alice");
      store.publish(
          Map.of("old.prompt.md", utf8("Old\n"), "older.prompt.md", utf8("Older\n")), "alice");
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(serving.version()).isEqualTo(2);
        try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials());
            Statement s = c.createStatement()) {
          s.execute(
              "DELETE FROM file_versions; DELETE FROM publishes; UPDATE store SET library_version = 0");
        }
        store.publish(Map.of("new.prompt.md", utf8("New\n")), "bob");
        assertThat(serving.await(() -> serving.taken() == 1, Duration.ofSeconds(30)))
            .isTrue();
        assertThat(serving.library().catalog().all())
            .extracting(d -> d.prompt().name())
            .containsExactly("new");
      }
    }
  }

  /**
   * A replica that parsed the store's files on its first load stores their parsed index; the next
   * replica serves them from it without parsing (its own index would add nothing, so it stores
   * none); a publish in between leaves the index vouching for what did not change; a replica of a
   * small library stores nothing.
   */
  @Test
  void theFirstReplicaStoresTheParsedIndexAndTheNextOneServesFromIt() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    LibraryOptions options = LibraryOptions.builder()
        .maxPromptBytes(1L << 20)
        .maxAttachmentBytes(10L << 20)
        .maxFiles(250_000)
        .debounce(Duration.ofMillis(25))
        .parallelism(2)
        .cacheDirectory(null)
        .cacheMinimumFiles(100)
        .build();
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < 150; i++) {
      files.put(
          String.format("team/p%03d.prompt.md", i),
          utf8("---\ndescription: number " + i + "\narguments: [who]\n---\n{{> part}} " + i
              + " for {{who}}\n"));
    }
    files.put("part.md", utf8("Part"));
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(files, "alice");
      // Below the minimum (1,000 files): it stores nothing. (This replica once used
      // withCacheDirectory(null), whose minimum is 0: it stored an index just after its load unless
      // closed first, and the next replica then parsed nothing, failing the test now and then.)
      LibraryOptions small = LibraryOptions.builder()
          .maxPromptBytes(1L << 20)
          .maxAttachmentBytes(10L << 20)
          .maxFiles(250_000)
          .debounce(Duration.ofMillis(25))
          .parallelism(2)
          .cacheDirectory(null)
          .cacheMinimumFiles(1_000)
          .build();
      try (StoreLibrary replica = StoreLibrary.start(url, small)) {
        assertThat(replica.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      }
      assertThat(indexWrittenAt(url))
          .as("a library below the minimum stores no index")
          .isNull();
      try (StoreLibrary first = StoreLibrary.start(url, options)) {
        assertThat(first.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(first.library().parsedIndex()).as("it parsed everything").isNotNull();
        awaitIndex(first, url, 1);
      }
      Timestamp written = indexWrittenAt(url);
      try (StoreLibrary second = StoreLibrary.start(url, options)) {
        assertThat(second.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(second.library().parsedIndex())
            .as("every file served from the stored index")
            .isNull();
        assertThat(second.library().catalog().all()).hasSize(150);
        assertThat(((TextContent) second
                    .library()
                    .catalog()
                    .get("team-p042")
                    .orElseThrow()
                    .renderer()
                    .render(Map.of("who", "Ada"))
                    .messages()
                    .getFirst()
                    .content())
                .text())
            .isEqualTo("Part 42 for Ada");
      }
      assertThat(indexWrittenAt(url)).as("nothing new to store").isEqualTo(written);
      Map<String, byte[]> next = new TreeMap<>(files);
      next.put("team/p007.prompt.md", utf8("---\ndescription: seven\n---\nSeven\n"));
      store.publish(next, "bob");
      try (StoreLibrary third = StoreLibrary.start(url, options)) {
        assertThat(third.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(third
                .library()
                .catalog()
                .get("team-p007")
                .orElseThrow()
                .prompt()
                .description())
            .isEqualTo("seven");
        assertThat(third
                .library()
                .catalog()
                .get("team-p008")
                .orElseThrow()
                .prompt()
                .description())
            .isEqualTo("number 8");
        awaitIndex(third, url, 2);
      }
    }
  }

  /**
   * Waits until {@code replica} stored the index of {@code version}, then checks the row it wrote.
   */
  private static void awaitIndex(StoreLibrary replica, StoreUrl url, long version)
      throws Exception {
    assertThat(replica.await(() -> replica.indexStored() == version, Duration.ofSeconds(20)))
        .as("the index of library version %d was stored", version)
        .isTrue();
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials());
        ResultSet r = c.createStatement()
            .executeQuery("SELECT library_version, length(data)" + " FROM library_index")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getLong(1)).isEqualTo(version);
      assertThat(r.getInt(2)).isPositive();
    }
  }

  private static java.sql.@org.jspecify.annotations.Nullable Timestamp indexWrittenAt(StoreUrl url)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials());
        ResultSet r = c.createStatement().executeQuery("SELECT written_at FROM library_index")) {
      return r.next() ? r.getTimestamp(1) : null;
    }
  }
}
