package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A published file shaped to hurt the reader costs that file only: every replica's feed serves the
 * next publish.
 */
@Tag("system") // starts a real PostgreSQL
@Timeout(60)
class StoreHostileFilesTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final LibraryOptions OPTIONS = LibraryOptions.defaults().withCacheDirectory(null);
  private static final String DEEP =
      "---\ndescription: d\na: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n---\nx\n";
  private static final String DEEP_ERROR =
      "deep.prompt.md:3: error: front matter is nested more than 32 levels deep";

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> names(Library library) {
    return library.catalog().all().stream().map(p -> p.prompt().name()).sorted().toList();
  }

  private static List<String> errors(Library library) {
    return library.diagnostics().stream()
        .filter(Diagnostic::isError)
        .map(Diagnostic::format)
        .toList();
  }

  @Test
  void aDeeplyNestedFileIsOneErrorAndTheNextPublishIsServed() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(Map.of("hello.prompt.md", utf8("Hello\n")), "alice");
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(WAIT)).isTrue();
        // A publish is the whole library: hello stays.
        store.publish(
            Map.of("hello.prompt.md", utf8("Hello\n"), "deep.prompt.md", utf8(DEEP)), "mallory");
        assertThat(serving.await(() -> serving.taken() == 2, WAIT))
            .as("the publish with the deep file is served")
            .isTrue();
        assertThat(names(serving.library())).containsExactly("hello");
        assertThat(errors(serving.library())).singleElement().asString().endsWith(DEEP_ERROR);
        assertThat(serving.feedProblem()).isNull();

        store.publish(
            Map.of(
                "hello.prompt.md",
                utf8("Hello\n"),
                "deep.prompt.md",
                utf8("Fixed\n"),
                "bye.prompt.md",
                utf8("Bye\n")),
            "alice");
        assertThat(serving.await(() -> serving.taken() == 3, WAIT))
            .as("the next publish is served")
            .isTrue();
        assertThat(names(serving.library())).containsExactly("bye", "deep", "hello");
        assertThat(errors(serving.library())).isEmpty();
      }
    }
  }

  @Test
  void aReplicaStartingOnAStoreHoldingTheDeepFileServesTheRest() throws Exception {
    StoreUrl url = TestPostgres.get().newDatabase();
    try (PromptStore store = PromptStore.open(url)) {
      store.publish(
          Map.of("hello.prompt.md", utf8("Hello\n"), "deep.prompt.md", utf8(DEEP)), "mallory");
      try (StoreLibrary serving = StoreLibrary.start(url, OPTIONS)) {
        assertThat(serving.awaitLoaded(WAIT)).isTrue();
        assertThat(names(serving.library())).containsExactly("hello");
        assertThat(errors(serving.library())).singleElement().asString().endsWith(DEEP_ERROR);
      }
    }
  }
}
