package io.promptd.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code URL[#BRANCH]}, the token from the environment, and what is safe to log. */
@Timeout(10)
class GitRemoteTest {
  @Test
  void theBranchFollowsTheHashAndTheTokenComesFromTheEnvironment() {
    GitRemote r = GitRemote.parse(
        "https://git.example.com/team/prompts.git#release/2", Map.of("PROMPTD_GIT_TOKEN", "t0ken"));
    assertThat(r.url()).isEqualTo("https://git.example.com/team/prompts.git");
    assertThat(r.branch()).isEqualTo("release/2");
    assertThat(r.sendsToken()).isTrue();
    assertThat(r.username()).isEqualTo("x-access-token");
    assertThat(r.refSpec()).isEqualTo("+refs/heads/release/2:refs/remotes/origin/release/2");
    assertThat(r.toString()).doesNotContain("t0ken");
    assertThat(r.redacted("failed with t0ken")).isEqualTo("failed with ***");
  }

  @Test
  void noTokenGoesOverPlainHttpAndAPasswordInTheUrlIsNeverShown() {
    GitRemote r = GitRemote.parse(
        "http://me:pa55@git.example.com/p.git", Map.of("PROMPTD_GIT_TOKEN", "t0ken"));
    assertThat(r.branch()).isNull();
    assertThat(r.sendsToken()).isFalse();
    assertThat(r.toString()).isEqualTo("http://***@git.example.com/p.git");
    assertThat(r.redacted("cannot reach http://me:pa55@git.example.com/p.git"))
        .isEqualTo("cannot reach http://***@git.example.com/p.git");
    assertThat(r.cloneIn(Path.of("/c")))
        .isEqualTo(GitRemote.parse("http://other:pw@git.example.com/p.git", Map.of())
            .cloneIn(Path.of("/c")));
  }

  @Test
  void sshRemotesTakeTheKeyAndKnownHostsGivenElseFromTheEnvironment(@TempDir Path dir)
      throws Exception {
    Path key = Files.writeString(dir.resolve("id_ed25519"), "not read here");
    GitRemote r = GitRemote.parse(
        "ssh://git@git.example.com:2222/team/prompts.git#main",
        Map.of(GitSsh.KEY_VARIABLE, key.toString()));
    assertThat(r.url()).isEqualTo("ssh://git@git.example.com:2222/team/prompts.git");
    assertThat(r.ssh())
        .isEqualTo(
            new GitSsh(key, Path.of(System.getProperty("user.home"), ".ssh", "known_hosts")));
    assertThat(r.sendsToken()).isFalse();
    Path hosts = dir.resolve("hosts");
    GitRemote scp = GitRemote.parse(
        "git@git.example.com:team/prompts.git",
        Map.of(GitSsh.KNOWN_HOSTS_VARIABLE, "/env/hosts"),
        null,
        hosts);
    assertThat(scp.ssh()).isEqualTo(new GitSsh(null, hosts));
    assertThat(GitRemote.parse("git.example.com:p.git", Map.of(GitSsh.KNOWN_HOSTS_VARIABLE, "/h"))
            .ssh())
        .isEqualTo(new GitSsh(null, Path.of("/h")));
    assertThatThrownBy(() -> GitRemote.parse("ssh://h/p.git", Map.of(), dir.resolve("nokey"), null))
        .hasMessage("the SSH key " + dir.resolve("nokey") + " is not a readable file");
    assertThatThrownBy(() -> GitRemote.parse("https://h/p.git", Map.of(), key, null))
        .hasMessageContaining("is for ssh:// and user@host:path remotes, not https://h/p.git");
    assertThat(GitRemote.parse("https://h/p.git", Map.of(GitSsh.KEY_VARIABLE, "/missing"))
            .ssh())
        .isNull();
  }

  @Test
  void otherSchemesAndBadBranchesAreRefused() {
    assertThatThrownBy(() -> GitRemote.parse("ftp://example.com/p.git", Map.of()))
        .hasMessageContaining("is not a Git URL: use file://, git://, http://, https://, ssh://");
    assertThatThrownBy(() -> GitRemote.parse("/srv/p.git", Map.of()))
        .hasMessageContaining("not a Git URL");
    assertThatThrownBy(() -> GitRemote.parse("C:/srv/p.git", Map.of()))
        .hasMessageContaining("not a Git URL");
    assertThatThrownBy(() -> GitRemote.parse("example.com:22", Map.of()))
        .hasMessageContaining("not a Git URL");
    assertThatThrownBy(() -> GitRemote.parse("file:///srv/p.git#a..b", Map.of()))
        .hasMessageContaining("not a branch name");
  }

  @Test
  void theCacheIsUnderXdgCacheHome() {
    assertThat(GitRemote.defaultCacheRoot(Map.of("XDG_CACHE_HOME", "/var/cache/me")))
        .isEqualTo(Path.of("/var/cache/me/promptd/git"));
  }
}
