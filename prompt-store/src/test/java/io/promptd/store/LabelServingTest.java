package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.LibraryFiles;
import io.promptd.library.LibraryOptions;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptSplit;
import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link StoreLibrary} serving one label: the labelled versions, and a label move reloading what
 * changed.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(60)
class LabelServingTest {
  private static final LibraryOptions OPTIONS = LibraryOptions.defaults().withCacheDirectory(null);

  private static byte[] prompt(String description) {
    return ("---\ndescription: " + description + "\n---\nHello\n").getBytes(StandardCharsets.UTF_8);
  }

  private static String description(StoreLibrary serving, String name) {
    return serving
        .library()
        .catalog()
        .get(name)
        .orElseThrow(() -> new AssertionError(name + " is not served"))
        .prompt()
        .description();
  }

  @Test
  void entriesNeedTheLabelOtherFilesFollowTheNewest() {
    assertThat(LibraryFiles.entry("a/hello.prompt.md")).isTrue();
    assertThat(LibraryFiles.entry(".claude/commands/fix.md")).isTrue();
    assertThat(LibraryFiles.entry("docs/guide.resource.md")).isTrue();
    assertThat(LibraryFiles.entry("ops/review/SKILL.md")).isTrue();
    assertThat(LibraryFiles.entry("_folder.yaml")).isFalse();
    assertThat(LibraryFiles.entry("partials/style.md")).isFalse();
    assertThat(LibraryFiles.entry("team/_header.prompt")).isFalse();
    assertThat(LibraryFiles.entry("a/notes.txt")).isFalse();
  }

  @Test
  void servesTheLabelledVersionsAndALabelMoveReloads() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url);
        StoreDatabase database = StoreDatabase.open(url)) {
      store.publish(
          Map.of("hello.prompt.md", prompt("one"), "other.prompt.md", prompt("other")),
          "alice",
          "staging");
      store.publish(
          Map.of(
              "hello.prompt.md", prompt("two"),
              "other.prompt.md", prompt("other"),
              "new.prompt.md", prompt("new")),
          "alice");
      try (StoreLibrary staging = StoreLibrary.start(database, OPTIONS, "staging");
          StoreLibrary latest = StoreLibrary.start(database, OPTIONS, null)) {
        assertThat(staging.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(latest.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        assertThat(staging.library().catalog().all())
            .extracting(d -> d.prompt().name())
            .containsExactly("hello", "other");
        assertThat(description(staging, "hello")).isEqualTo("one");
        assertThat(description(latest, "hello")).isEqualTo("two");
        assertThat(latest.library().catalog().all()).hasSize(3);
        long before = staging.version();

        LinkedBlockingQueue<Long> changes = new LinkedBlockingQueue<>();
        try (AutoCloseable listening =
            staging.library().catalog().onChange(() -> changes.add(staging.version()))) {
          store.labels().set("hello", 2, "staging", "bob");
          assertThat(changes.poll(20, TimeUnit.SECONDS)).isNotNull();
          assertThat(description(staging, "hello")).isEqualTo("two");
          assertThat(staging.version()).isGreaterThan(before);

          store.labels().remove("other", "staging", "bob");
          assertThat(changes.poll(20, TimeUnit.SECONDS)).isNotNull();
          assertThat(staging.library().catalog().all())
              .extracting(d -> d.prompt().name())
              .containsExactly("hello");
        }
        assertThat(description(latest, "hello")).isEqualTo("two");
      }
    }
  }

  /**
   * Each label keeps its own parsed index: a label pointing at older versions no longer overwrites
   * the index of the newest versions (and the other way round), so each one's next start parses
   * nothing. Its first start, with no index of its own, takes the newest versions' and parses only
   * what differs.
   */
  @Test
  void eachLabelStoresAndRestoresItsOwnParsedIndex() throws Exception {
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
      files.put(String.format("team/p%03d.prompt.md", i), prompt("number " + i));
    }
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(files, "alice", "old");
      Map<String, byte[]> next = new TreeMap<>(files);
      for (int i = 0; i < 10; i++) {
        next.put(String.format("team/p%03d.prompt.md", i), prompt("renumbered " + i));
      }
      store.publish(next, "bob");
    }
    try (StoreLibrary latest = StoreLibrary.start(url, options)) {
      assertThat(latest.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      assertThat(latest.library().parsedIndex()).as("it parsed everything").isNotNull();
      awaitIndex(latest);
    }
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreLibrary old = StoreLibrary.start(database, options, "old")) {
      assertThat(old.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      assertThat(description(old, "team-p003")).isEqualTo("number 3");
      assertThat(old.library().parsedIndex())
          .as("the newest versions' index does not vouch for the 10 older files")
          .isNotNull();
      awaitIndex(old);
    }
    assertThat(indexRows(url)).containsExactlyInAnyOrder("", "old");
    try (StoreLibrary latest = StoreLibrary.start(url, options)) {
      assertThat(latest.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      assertThat(description(latest, "team-p003")).isEqualTo("renumbered 3");
      assertThat(latest.library().parsedIndex())
          .as("all served from its own index")
          .isNull();
    }
    try (StoreDatabase database = StoreDatabase.open(url);
        StoreLibrary old = StoreLibrary.start(database, options, "old")) {
      assertThat(old.awaitLoaded(Duration.ofSeconds(20))).isTrue();
      assertThat(description(old, "team-p003")).isEqualTo("number 3");
      assertThat(old.library().parsedIndex())
          .as("all served from its own index")
          .isNull();
    }
  }

  /**
   * A split label serves each version as its own variant, rendered with the partials the label
   * serves; a version that does not parse leaves the prompt unsplit (everyone gets the first
   * version) until the split is fixed.
   */
  @Test
  void aSplitServesEachVersionWithThePartialsAndABrokenVersionLeavesItUnsplit() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url);
        StoreDatabase database = StoreDatabase.open(url)) {
      byte[] part = "Part".getBytes(StandardCharsets.UTF_8);
      store.publish(
          Map.of(
              "review.prompt.md",
              "{{> part}} A\n".getBytes(StandardCharsets.UTF_8),
              "part.md",
              part),
          "alice");
      store.publish(
          Map.of(
              "review.prompt.md",
              "{{> part}} B\n".getBytes(StandardCharsets.UTF_8),
              "part.md",
              part),
          "alice");
      store.publish(
          Map.of(
              "review.prompt.md",
              "---\narguments: [\n---\nbroken\n".getBytes(StandardCharsets.UTF_8),
              "part.md",
              part),
          "alice");
      store
          .labels()
          .split(
              "review", "production", List.of(new SplitShare(1, 1), new SplitShare(2, 1)), "bob");
      try (StoreLibrary serving = StoreLibrary.start(database, OPTIONS, "production")) {
        assertThat(serving.awaitLoaded(Duration.ofSeconds(20))).isTrue();
        PromptSplit split = serving.await(
                () -> serving.library().catalog().get("review").orElseThrow().split() != null,
                Duration.ofSeconds(20))
            ? serving.library().catalog().get("review").orElseThrow().split()
            : null;
        assertThat(split).as("the split is served").isNotNull();
        assertThat(split.variants()).hasSize(2);
        assertThat(text(split.variants().get(0).definition())).isEqualTo("Part A");
        assertThat(text(split.variants().get(1).definition())).isEqualTo("Part B");
        store
            .labels()
            .split(
                "review", "production", List.of(new SplitShare(1, 1), new SplitShare(3, 1)), "bob");
        assertThat(serving.await(
                () -> serving.library().catalog().get("review").orElseThrow().split() == null,
                Duration.ofSeconds(20)))
            .as("a version that does not parse leaves the prompt unsplit")
            .isTrue();
        assertThat(text(serving.library().catalog().get("review").orElseThrow()))
            .isEqualTo("Part A");
      }
    }
  }

  private static String text(PromptDefinition d) throws Exception {
    return ((TextContent) d.renderer().render(Map.of()).messages().getFirst().content())
        .text()
        .strip();
  }

  private static void awaitIndex(StoreLibrary replica) throws InterruptedException {
    assertThat(replica.await(() -> replica.indexStored() >= 0, Duration.ofSeconds(20)))
        .as("its index was stored")
        .isTrue();
  }

  private static List<String> indexRows(StoreUrl url) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials());
        ResultSet r = c.createStatement().executeQuery("SELECT label FROM library_index")) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }
}
