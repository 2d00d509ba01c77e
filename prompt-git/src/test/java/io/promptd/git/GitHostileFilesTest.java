package io.promptd.git;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.git.testing.GitServer;
import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit holding a file shaped to hurt the reader costs that file only: the feed serves the next
 * commit.
 */
@Timeout(120)
class GitHostileFilesTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String DEEP =
      "---\ndescription: d\na: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n---\nx\n";
  private static final String DEEP_ERROR =
      "deep.prompt.md:3: error: front matter is nested more than 32 levels deep";

  @TempDir
  Path dir;

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
  void aDeeplyNestedFileIsOneErrorAndTheNextGoodCommitIsServed() throws Exception {
    try (GitServer git = GitServer.create(dir)) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      GitRemote remote = GitRemote.parse(git.fileUrl() + "#main", Map.of());
      Path cache = dir.resolve("cache");
      try (GitLibrary served =
          GitLibrary.start(remote, cache, Duration.ZERO, LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).isTrue();
        String bad = git.commit("deep", Map.of("deep.prompt.md", DEEP));
        git.push();
        served.fetchNow();
        assertThat(served.await(() -> bad.equals(served.commit()), WAIT))
            .as("the commit with the deep file is served")
            .isTrue();
        assertThat(names(served.library())).containsExactly("hello");
        assertThat(errors(served.library())).singleElement().asString().endsWith(DEEP_ERROR);
        assertThat(served.feedProblem()).isNull();

        String good =
            git.commit("fixed", Map.of("deep.prompt.md", "Fixed\n", "bye.prompt.md", "Bye\n"));
        git.push();
        served.fetchNow();
        assertThat(served.await(() -> good.equals(served.commit()), WAIT))
            .as("the next commit is served")
            .isTrue();
        assertThat(names(served.library())).containsExactly("bye", "deep", "hello");
        assertThat(errors(served.library())).isEmpty();
      }
    }
  }

  @Test
  void aRestartFromACloneWhoseHeadHasTheDeepFileServesTheRestAndReportsIt() throws Exception {
    try (GitServer git = GitServer.create(dir)) {
      String bad = git.commit("deep", Map.of("hello.prompt.md", "Hello\n", "deep.prompt.md", DEEP));
      git.push();
      GitRemote remote = GitRemote.parse(git.fileUrl() + "#main", Map.of());
      Path cache = dir.resolve("cache");
      try (GitLibrary served =
          GitLibrary.start(remote, cache, Duration.ZERO, LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).isTrue();
      }
      try (GitLibrary again =
          GitLibrary.start(remote, cache, Duration.ZERO, LibraryOptions.defaults())) {
        assertThat(again.awaitLoaded(WAIT)).isTrue();
        assertThat(again.commit()).isEqualTo(bad);
        assertThat(names(again.library())).containsExactly("hello");
        assertThat(errors(again.library())).singleElement().asString().endsWith(DEEP_ERROR);
      }
    }
  }
}
