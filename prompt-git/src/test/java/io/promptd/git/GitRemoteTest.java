package io.promptd.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
  void otherSchemesAndBadBranchesAreRefused() {
    assertThatThrownBy(() -> GitRemote.parse("ssh://git@example.com/p.git", Map.of()))
        .hasMessageContaining("ssh:// is not supported");
    assertThatThrownBy(() -> GitRemote.parse("/srv/p.git", Map.of()))
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
