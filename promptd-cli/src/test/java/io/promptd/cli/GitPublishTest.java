package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.git.testing.GitServer;
import io.promptd.git.testing.GitSshServer;
import io.promptd.store.testing.TestPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd publish --from-git} against a real Git server ({@code git daemon}, and a real
 * OpenSSH {@code sshd}) and a real PostgreSQL: the branch's head files are published, checked as a
 * folder's are, with the commit id in each version's author.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(120)
class GitPublishTest {
  @TempDir
  Path dir;

  @Test
  void theHeadOfTheBranchIsPublishedWithItsCommitId() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
    try (GitServer git = GitServer.create(dir.resolve("git")).start()) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n", ".env", "SECRET=1\n"));
      String head = git.commit("review", Map.of("review.prompt.md", "Review\n"));
      git.push();

      StoreCliTest.Result dry = StoreCliTest.run(
          List.of("publish", "--from-git", git.url() + "#main", "--store", url, "--dry-run"), env);
      assertThat(dry.status()).as(dry.err()).isZero();
      assertThat(dry.out()).contains("hello.prompt.md").contains("review.prompt.md");

      StoreCliTest.Result published = StoreCliTest.run(
          List.of("publish", "--from-git", git.url() + "#main", "--store", url), env);
      assertThat(published.status()).as(published.err()).isZero();
      assertThat(published.out())
          .contains("published " + git.url() + "#main at commit " + head)
          .contains("2 added");
      assertThat(StoreCliTest.run(List.of("history", "review", "--store", url)).out())
          .containsPattern(
              "review\\.prompt\\.md\t1\t1\t\\S+\tAda Lovelace \\(git " + head + "\\)\t");

      StoreCliTest.Result again = StoreCliTest.run(
          List.of("publish", "--from-git", git.url() + "#main", "--store", url, "--author", "ci"),
          env);
      assertThat(again.out()).contains("nothing to change");
    }
  }

  @Test
  void theHeadIsPublishedOverSsh() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      String head = git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      String remote = ssh.url(git.base().resolve("prompts.git")) + "#main";
      List<String> publish = List.of(
          "publish",
          "--from-git",
          remote,
          "--store",
          url,
          "--git-ssh-key",
          ssh.clientKey().toString(),
          "--git-known-hosts",
          ssh.knownHosts().toString());
      StoreCliTest.Result published = StoreCliTest.run(publish, env);
      assertThat(published.status()).as(published.err()).isZero();
      assertThat(published.out()).contains("at commit " + head).contains("1 added");
      assertThat(StoreCliTest.run(List.of("history", "hello", "--store", url)).out())
          .contains("Ada Lovelace (git " + head + ")");
    }
  }

  @Test
  void aBranchWithErrorsIsRefusedAndAnUnknownOneNamed() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
    try (GitServer git = GitServer.create(dir.resolve("git"))) {
      git.commit("broken", Map.of("broken.prompt.md", "---\nname: [\n---\nBroken\n"));
      git.push();
      StoreCliTest.Result refused =
          StoreCliTest.run(List.of("publish", "--from-git", git.fileUrl(), "--store", url), env);
      assertThat(refused.status()).isEqualTo(Main.CHECK_FAILED);
      assertThat(refused.err()).contains("broken.prompt.md");

      StoreCliTest.Result missing = StoreCliTest.run(
          List.of("publish", "--from-git", git.fileUrl() + "#nope", "--store", url), env);
      assertThat(missing.status()).isEqualTo(Main.FAILED);
      assertThat(missing.err()).contains("nope");
    }
  }
}
