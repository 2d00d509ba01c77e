package io.promptd.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.git.testing.GitServer;
import io.promptd.git.testing.GitSshServer;
import io.promptd.library.LibraryOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A branch fetched over SSH from a real OpenSSH server ({@code sshd}, running
 * {@code git-upload-pack}), with commits pushed by the real {@code git} command: the head is served
 * and a push followed; an unknown host, a changed host key and a key the server does not let in are
 * refused with errors that say so, and the known-hosts file is never written.
 */
@Timeout(120)
class GitSshTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  @Test
  void theHeadIsFetchedOverSshAndAPushIsFollowed() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      String first = git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      GitRemote remote = GitRemote.parse(
          ssh.url(git.base().resolve("prompts.git")) + "#main",
          Map.of(),
          ssh.clientKey(),
          ssh.knownHosts());
      try (GitLibrary served = GitLibrary.start(
          remote, dir.resolve("cache"), Duration.ofMillis(100), LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).as(ssh.log()).isTrue();
        assertThat(served.commit()).isEqualTo(first);
        String second = git.commit("bye", Map.of("bye.prompt.md", "Bye\n"));
        git.push();
        assertThat(served.await(() -> second.equals(served.commit()), WAIT)).isTrue();
        assertThat(served.library().catalog().all()).hasSize(2);
      }
      assertThat(ssh.log()).contains("Accepted publickey");
    }
  }

  @Test
  void aHostKeyChangedWhileServingIsRefusedAndTheLastCommitStaysServed() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      String first = git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      Path hosts = Files.copy(ssh.knownHosts(), dir.resolve("known_hosts"));
      GitRemote remote = GitRemote.parse(
          ssh.url(git.base().resolve("prompts.git")) + "#main", Map.of(), ssh.clientKey(), hosts);
      try (GitLibrary served = GitLibrary.start(
          remote, dir.resolve("cache"), Duration.ofMillis(100), LibraryOptions.defaults())) {
        assertThat(served.awaitLoaded(WAIT)).isTrue();
        Files.copy(ssh.changedKnownHosts(), hosts, StandardCopyOption.REPLACE_EXISTING);
        // The push waits for a refused fetch: a fetch that read the old file before the copy could
        // otherwise still be under way, and fetch the push (seen on a loaded machine).
        assertThat(served.await(served::away, WAIT)).isTrue();
        git.commit("bye", Map.of("bye.prompt.md", "Bye\n"));
        git.push();
        long before = served.fetches();
        assertThat(served.await(() -> served.away() && served.fetches() > before + 1, WAIT))
            .isTrue();
        assertThat(served.commit()).isEqualTo(first);
        assertThat(served.library().catalog().all()).hasSize(1);
      }
    }
  }

  @Test
  void anUnknownHostAChangedHostKeyAndAKeyNotLetInAreRefused() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      String url = ssh.url(git.base().resolve("prompts.git")) + "#main";
      Path cache = dir.resolve("cache");

      Path empty = Files.writeString(dir.resolve("empty_known_hosts"), "");
      assertThatThrownBy(() ->
              GitLibrary.readHead(GitRemote.parse(url, Map.of(), ssh.clientKey(), empty), cache))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("the host [127.0.0.1]:")
          .hasMessageContaining(
              " is not in the known-hosts file " + empty + " (refused: an unknown host");
      assertThat(empty).isEmptyFile();
      Path missing = dir.resolve("no_known_hosts");
      assertThatThrownBy(() ->
              GitLibrary.readHead(GitRemote.parse(url, Map.of(), ssh.clientKey(), missing), cache))
          .hasMessageContaining("is not in the known-hosts file " + missing);
      assertThat(missing).doesNotExist();

      Path changed = ssh.changedKnownHosts();
      String before = Files.readString(changed);
      assertThatThrownBy(() ->
              GitLibrary.readHead(GitRemote.parse(url, Map.of(), ssh.clientKey(), changed), cache))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("does not match the one in the known-hosts file " + changed)
          .hasMessageContaining("the host's key changed");
      assertThat(changed).hasContent(before);

      String otherKey = Files.readString(ssh.otherKey());
      assertThatThrownBy(() -> GitLibrary.readHead(
              GitRemote.parse(url, Map.of(), ssh.otherKey(), ssh.knownHosts()), cache))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Cannot log in at 127.0.0.1:")
          .hasMessageEndingWith("(SSH key " + ssh.otherKey() + ")")
          .hasMessageNotContaining(otherKey.lines().skip(1).findFirst().orElseThrow());
      assertThat(ssh.log()).doesNotContain("Accepted publickey");
    }
  }
}
