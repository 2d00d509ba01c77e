package io.promptd.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.git.testing.GitHttpsServer;
import io.promptd.git.testing.GitServer;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A branch served from a real Git server ({@code git daemon}, and a {@code file://} repository)
 * with commits pushed by the real {@code git} command: the head is served, pushes and force-pushes
 * are followed, and a remote gone away leaves the last commit served, across a restart too.
 */
@Timeout(120)
class GitLibraryTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final byte[] SECRET = "a-webhook-secret-of-some-length".getBytes(UTF_8);

  @TempDir
  Path dir;

  private static List<String> names(Library library) {
    return library.catalog().all().stream().map(p -> p.prompt().name()).sorted().toList();
  }

  private static Map<String, String> files(String... pathsAndTexts) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < pathsAndTexts.length; i += 2) {
      out.put(pathsAndTexts[i], pathsAndTexts[i + 1]);
    }
    return out;
  }

  @Test
  void theHeadIsServedAndPushesForcePushesAndAnOutageAreFollowedByPolling() throws Exception {
    try (GitServer git = GitServer.create(dir).start()) {
      String first = git.commit("hello", files("hello.prompt.md", "Hello\n"));
      git.push();
      Path cache = dir.resolve("cache");
      GitRemote remote = GitRemote.parse(git.url() + "#main", Map.of());
      try (GitLibrary served =
          GitLibrary.start(remote, cache, Duration.ofMillis(100), LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).isTrue();
        assertThat(names(served.library())).containsExactly("hello");
        assertThat(served.commit()).isEqualTo(first);

        AtomicInteger changes = new AtomicInteger();
        try (AutoCloseable listening =
            served.library().catalog().onChange(changes::incrementAndGet)) {
          String second = git.commit("bye", files("bye.prompt.md", "Bye\n"));
          git.push();
          assertThat(served.await(() -> second.equals(served.commit()), WAIT)).isTrue();
          assertThat(names(served.library())).containsExactly("bye", "hello");
          assertThat(changes.get()).isEqualTo(1);

          git.forcePush(first);
          assertThat(served.await(() -> first.equals(served.commit()), WAIT)).isTrue();
          assertThat(names(served.library())).containsExactly("hello");
          assertThat(changes.get()).isEqualTo(2);
        }

        git.stop();
        long before = served.fetches();
        assertThat(served.await(() -> served.away() && served.fetches() > before + 1, WAIT))
            .isTrue();
        assertThat(served.commit()).isEqualTo(first);
        assertThat(names(served.library())).containsExactly("hello");
      }
      // A restart while the remote is away serves what the clone last fetched.
      try (GitLibrary again =
          GitLibrary.start(remote, cache, Duration.ofMillis(100), LibraryOptions.defaults())) {
        assertThat(again.awaitLoaded(WAIT)).isTrue();
        assertThat(again.commit()).isEqualTo(first);
        assertThat(names(again.library())).containsExactly("hello");
        // ...and the remote back, its new commits.
        String third = git.commit("third", files("third.prompt.md", "Third\n"));
        git.push();
        git.start();
        assertThat(again.await(() -> third.equals(again.commit()), WAIT)).isTrue();
        assertThat(names(again.library())).containsExactly("hello", "third");
      }
    }
  }

  @Test
  void withoutPollingASignedWebhookFetchesAndABadSignatureDoesNot() throws Exception {
    try (GitServer git = GitServer.create(dir)) {
      String first = git.commit("hello", files("hello.prompt.md", "Hello\n"));
      git.push();
      GitRemote remote = GitRemote.parse(git.fileUrl(), Map.of()); // the remote's default branch
      try (GitLibrary served = GitLibrary.start(
          remote, dir.resolve("cache"), Duration.ZERO, LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).isTrue();
        assertThat(served.commit()).isEqualTo(first);
        GitWebhook hook = new GitWebhook(SECRET, served::fetchNow);
        String second = git.commit("bye", files("bye.prompt.md", "Bye\n"));
        git.push();

        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(UTF_8);
        assertThat(hook.handle(null, "push", body).status()).isEqualTo(401);
        String wrong = GitWebhook.sign("another-secret-of-some-length".getBytes(UTF_8), body);
        assertThat(hook.handle(wrong, "push", body).status()).isEqualTo(403);
        String signed = GitWebhook.sign(SECRET, body);
        assertThat(hook.handle(signed, "push", "{}".getBytes(UTF_8)).status())
            .as("a signature of another body")
            .isEqualTo(403);
        assertThat(hook.handle(signed, "push", null).status()).isEqualTo(413);
        assertThat(hook.handle(signed, "ping", body).status()).isEqualTo(202);
        assertThat(served.fetchRequests()).isZero();
        assertThat(served.fetches()).isEqualTo(1);
        assertThat(served.commit()).isEqualTo(first);

        assertThat(hook.handle(signed, "push", body).status()).isEqualTo(202);
        assertThat(served.fetchRequests()).isEqualTo(1);
        assertThat(served.await(() -> second.equals(served.commit()), WAIT)).isTrue();
        assertThat(names(served.library())).containsExactly("bye", "hello");
      }
    }
  }

  @Test
  void theFilesOfACommitAreThoseAFolderLibraryReads() throws Exception {
    try (GitServer git = GitServer.create(dir)) {
      String head = git.commit(
          "files",
          files(
              "hello.prompt.md", "Hello\n",
              ".env", "SECRET=1\n",
              "docs/.notes.md", "hidden\n",
              "target/built.prompt.md", "built\n",
              "node_modules/x/y.prompt.md", "dependency\n",
              ".hidden/a.prompt.md", "hidden folder\n",
              ".claude/commands/fix.md", "Fix\n",
              "ops/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\nRead\n",
              "ops/review/.config/settings.json", "{}\n",
              "ops/review/.editorconfig", "root = true\n"));
      git.push();
      GitCommit c = GitLibrary.readHead(
          GitRemote.parse(git.fileUrl() + "#main", Map.of()), dir.resolve("cache"));
      assertThat(c.id()).isEqualTo(head);
      assertThat(c.author()).isEqualTo("Ada Lovelace");
      assertThat(c.files().keySet())
          .containsExactly(
              ".claude/commands/fix.md",
              "hello.prompt.md",
              "ops/review/.editorconfig",
              "ops/review/SKILL.md");
    }
  }

  @Test
  void anHttpsRemoteGetsTheTokenAsBasicAuthAndNoErrorShowsIt() throws Exception {
    String token = "s3cr3t-t0ken-value";
    try (GitServer git = GitServer.create(dir);
        GitHttpsServer https = GitHttpsServer.start(git.base(), dir, "x-access-token", token)) {
      String head = git.commit("hello", files("hello.prompt.md", "Hello\n"));
      git.push();
      String url = https.url("prompts.git") + "#main";
      Path cache = dir.resolve("cache");
      GitRemote remote = GitRemote.parse(url, Map.of(GitRemote.TOKEN_VARIABLE, token));
      // The test server's certificate is self-signed: this clone does not verify it.
      Path clone = Files.createDirectories(remote.cloneIn(cache));
      git.git(clone, "init", "-q", "--bare", ".");
      git.git(clone, "config", "http.sslVerify", "false");

      assertThat(GitLibrary.readHead(remote, cache).id()).isEqualTo(head);
      String wrong = "wr0ng-t0ken-value";
      assertThatThrownBy(() -> GitLibrary.readHead(
              GitRemote.parse(url, Map.of(GitRemote.TOKEN_VARIABLE, wrong)), cache))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("127.0.0.1")
          .hasMessageNotContaining(wrong);
      assertThatThrownBy(() -> GitLibrary.readHead(GitRemote.parse(url, Map.of()), cache))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("127.0.0.1");
    }
  }

  @Test
  void aMissingBranchIsAnErrorThatNamesIt() throws Exception {
    try (GitServer git = GitServer.create(dir)) {
      git.commit("hello", files("hello.prompt.md", "Hello\n"));
      git.push();
      GitRemote remote = GitRemote.parse(git.fileUrl() + "#nope", Map.of());
      Assertions.assertThatThrownBy(() -> GitLibrary.readHead(remote, dir.resolve("cache")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("nope");
    }
  }
}
