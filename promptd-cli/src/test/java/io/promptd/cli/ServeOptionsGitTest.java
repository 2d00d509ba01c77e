package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --git URL}: one source, a poll interval, and a webhook only over HTTP with a
 * secret.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsGitTest {
  @TempDir
  Path dir;

  @Test
  void gitIsASourceOfItsOwnPolledEvery30sByDefault() {
    ServeOptions o = ServeOptions.parse(List.of("--git", "file:///srv/prompts.git#main"));
    assertThat(o.directories()).isEmpty();
    assertThat(o.store()).isNull();
    assertThat(o.git().source())
        .isEqualTo(new GitSource("file:///srv/prompts.git#main", null, null));
    assertThat(o.git().poll()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.git().webhookSecret()).isNull();
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--git", "file:///p.git", dir.toString())))
        .hasMessage("serve takes one source: folders, --store or --git");
  }

  @Test
  void thePollIsADurationOrZero() {
    assertThat(GitOptions.duration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(GitOptions.duration("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(GitOptions.duration("45")).isEqualTo(Duration.ofSeconds(45));
    assertThat(GitOptions.duration("0")).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> GitOptions.duration("soon")).hasMessageContaining("needs a duration");
    assertThatThrownBy(() -> GitOptions.duration("10ms")).hasMessageContaining("at least 100ms");
  }

  @Test
  void theWebhookSecretNeedsHttpAndSixteenBytes() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret"), "a-secret-of-enough-bytes\n");
    ServeOptions o = ServeOptions.parse(List.of(
        "--http", "--git", "file:///p.git", "--git-webhook-secret-file", secret.toString()));
    assertThat(o.git().webhookSecret().bytes()).asString().isEqualTo("a-secret-of-enough-bytes");
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--git", "file:///p.git", "--git-webhook-secret-file", secret.toString())))
        .hasMessageStartingWith("--git-webhook-secret-file needs --http");
    Path shortSecret = Files.writeString(dir.resolve("short"), "short");
    assertThatThrownBy(() -> ServeOptions.parse(List.of(
            "--http",
            "--git",
            "file:///p.git",
            "--git-webhook-secret-file",
            shortSecret.toString())))
        .hasMessageContaining("has 5 bytes; at least 16 are needed")
        .hasMessageNotContaining("short\"");
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--git-poll", "5s", dir.toString())))
        .hasMessage("--git-poll and --git-webhook-secret-file need --git");
  }

  @Test
  void publishFromGitTakesNoFolderAndChecksTheUrl() {
    StoreCommand c = StoreCommand.parse(
        "publish",
        List.of("--from-git", "https://example.com/p.git#main", "--store", "postgresql://h/db"),
        Map.of());
    assertThat(c.fromGit()).isEqualTo(new GitSource("https://example.com/p.git#main", null, null));
    assertThat(c.author()).isEmpty();
    assertThatThrownBy(() -> StoreCommand.parse(
            "publish",
            List.of("--from-git", "ftp://example.com/p.git", "--store", "postgresql://h/db"),
            Map.of()))
        .hasMessageContaining("is not a Git URL");
    assertThatThrownBy(() -> StoreCommand.parse(
            "history", List.of("x", "--from-git", "file:///p.git"), java.util.Map.of()))
        .hasMessage("--from-git is for publish, not history");
  }

  @Test
  void theSshKeyAndKnownHostsAreForAnSshRemote() throws Exception {
    Path key = Files.writeString(dir.resolve("id_ed25519"), "a key\n");
    Path hosts = dir.resolve("known_hosts");
    ServeOptions o = ServeOptions.parse(List.of(
        "--git",
        "ssh://git@example.com/p.git#main",
        "--git-ssh-key",
        key.toString(),
        "--git-known-hosts",
        hosts.toString()));
    assertThat(o.git().source())
        .isEqualTo(new GitSource("ssh://git@example.com/p.git#main", key, hosts));
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--git-ssh-key", key.toString(), dir.toString())))
        .hasMessage("--git-ssh-key and --git-known-hosts need --git");

    StoreCommand c = StoreCommand.parse(
        "publish",
        List.of(
            "--from-git",
            "git@example.com:p.git",
            "--git-ssh-key",
            key.toString(),
            "--store",
            "postgresql://h/db"),
        Map.of());
    assertThat(c.fromGit()).isEqualTo(new GitSource("git@example.com:p.git", key, null));
    assertThatThrownBy(() -> StoreCommand.parse(
            "publish",
            List.of(
                "--from-git",
                "https://example.com/p.git",
                "--git-ssh-key",
                key.toString(),
                "--store",
                "postgresql://h/db"),
            Map.of()))
        .hasMessage("--from-git: an SSH key or known-hosts file is for ssh:// and user@host:path"
            + " remotes, not https://example.com/p.git");
    assertThatThrownBy(() -> StoreCommand.parse(
            "publish",
            List.of(
                "--from-git",
                "ssh://example.com/p.git",
                "--git-ssh-key",
                "/no/such/key",
                "--store",
                "postgresql://h/db"),
            Map.of()))
        .hasMessage("--from-git: the SSH key /no/such/key is not a readable file");
    assertThatThrownBy(() -> StoreCommand.parse(
            "publish",
            List.of(
                dir.toString(),
                "--git-known-hosts",
                hosts.toString(),
                "--store",
                "postgresql://h/db"),
            Map.of()))
        .hasMessage("--git-ssh-key and --git-known-hosts need publish --from-git");
    assertThat(Main.USAGE_TEXT)
        .contains("--git-ssh-key FILE", "--git-known-hosts FILE", "[--git-ssh-key FILE]");
  }
}
