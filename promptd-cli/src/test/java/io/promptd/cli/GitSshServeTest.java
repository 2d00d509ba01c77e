package io.promptd.cli;

import static io.promptd.cli.SkillsServeTest.awaitNotification;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.git.testing.GitServer;
import io.promptd.git.testing.GitSshServer;
import io.promptd.testing.Poll;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --git ssh://…} against a real OpenSSH server ({@code sshd}) with the key and
 * known-hosts file given by options: a push reaches a client listening over stdio by polling; an
 * unknown host and a key the server does not let in are refused with errors naming the file and the
 * key, never the key's contents, and nothing is served.
 */
@Timeout(120)
class GitSshServeTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  private Map<String, String> env() {
    return Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
  }

  private static List<String> serve(String url, Path key, Path knownHosts) {
    return new ArrayList<>(List.of(
        "serve",
        "--stdio",
        "--git",
        url,
        "--git-ssh-key",
        key.toString(),
        "--git-known-hosts",
        knownHosts.toString(),
        "--git-poll",
        "200ms"));
  }

  /**
   * Waits for the first commit: stdio serves after 5 s without it, and sshd's first log-in can take
   * longer.
   */
  private static void awaitHello(SkillsServeTest.Stdio server) {
    Poll.await(
        WAIT,
        Duration.ofMillis(200),
        "the first commit served",
        () -> GitServeTest.prompts(server).contains("\"name\":\"hello\""));
  }

  /**
   * Runs {@code promptd} with {@code args} until its log holds {@code refusal} and that nothing is
   * fetched yet, then ends its stdin (which stops it). Its stdin stays open until then: a server
   * whose stdin ends at once may stop before its first fetch has failed, on a loaded machine.
   */
  private StoreCliTest.Result refused(List<String> args, String refusal) throws Exception {
    List<String> command = StoreCliTest.java();
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("PROMPTD_STORE");
    builder.environment().putAll(env());
    Process p = builder.start();
    StringBuffer err = new StringBuffer();
    Thread reader = Thread.ofVirtual().start(() -> {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getErrorStream(), UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          err.append(line).append('\n');
        }
      } catch (IOException e) {
        // the process went away; what it wrote is in err
      }
    });
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> CliProcessTest.read(p.getInputStream()));
    try {
      Poll.await(
          WAIT,
          Duration.ofMillis(100),
          "the refusal in the log: " + refusal + "\n" + err,
          () -> err.indexOf(refusal) >= 0 && err.indexOf("is not fetched yet") >= 0);
    } finally {
      p.getOutputStream().close();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(Duration.ofSeconds(10));
    }
    return new StoreCliTest.Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.toString());
  }

  @Test
  void overStdioAPushReachesAListeningClientBySshPolling() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      String url = ssh.url(git.base().resolve("prompts.git")) + "#main";
      try (SkillsServeTest.Stdio server =
          SkillsServeTest.Stdio.start(serve(url, ssh.clientKey(), ssh.knownHosts()), env())) {
        awaitHello(server);
        GitServeTest.listenForPromptChanges(server);
        git.commit("bye", Map.of("bye.prompt.md", "Bye\n"));
        git.push();
        assertThat(awaitNotification(server.out(), "notifications/prompts/list_changed"))
            .as("list_changed after the push")
            .isNotNull();
        assertThat(GitServeTest.prompts(server)).contains("\"name\":\"bye\"");
      }
    }
  }

  @Test
  void withoutOptionsTheKeyAndKnownHostsAreTakenFromTildeSsh() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      Path home = Files.createDirectories(dir.resolve("home/.ssh")).getParent();
      Files.copy(ssh.clientKey(), home.resolve(".ssh/id_ecdsa"));
      Files.copy(ssh.knownHosts(), home.resolve(".ssh/known_hosts"));
      String url = ssh.url(git.base().resolve("prompts.git")) + "#main";
      try (SkillsServeTest.Stdio server = SkillsServeTest.Stdio.start(
          List.of("-Duser.home=" + home),
          List.of("serve", "--stdio", "--git", url, "--git-poll", "200ms"),
          env())) {
        awaitHello(server);
      }
      assertThat(ssh.log()).contains("Accepted publickey");
    }
  }

  @Test
  void anUnknownHostAndAKeyNotLetInAreRefusedAndNothingIsServed() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"));
        GitSshServer ssh = GitSshServer.start(dir.resolve("ssh"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      String url = ssh.url(git.base().resolve("prompts.git")) + "#main";
      Path empty = Files.writeString(dir.resolve("empty_known_hosts"), "");

      StoreCliTest.Result unknown =
          refused(serve(url, ssh.clientKey(), empty), "the host [127.0.0.1]:");
      assertThat(unknown.err())
          .contains("the host [127.0.0.1]:")
          .contains("is not in the known-hosts file " + empty + " (refused: an unknown host")
          .contains("is not fetched yet; serving nothing (not ready)");
      assertThat(empty).isEmptyFile();

      String keyLine =
          Files.readString(ssh.otherKey()).lines().skip(1).findFirst().orElseThrow();
      StoreCliTest.Result wrongKey =
          refused(serve(url, ssh.otherKey(), ssh.knownHosts()), "Cannot log in at 127.0.0.1:");
      assertThat(wrongKey.err())
          .contains("Cannot log in at 127.0.0.1:")
          .contains("(SSH key " + ssh.otherKey() + ")")
          .contains("is not fetched yet; serving nothing (not ready)")
          .doesNotContain(keyLine);
      assertThat(ssh.log()).doesNotContain("Accepted publickey");
    }
  }
}
