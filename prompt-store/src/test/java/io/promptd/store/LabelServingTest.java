package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.LibraryFiles;
import io.promptd.library.LibraryOptions;
import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A {@link StoreLibrary} serving one label: the labelled versions, and a label move reloading what changed. */
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
}
