package io.promptd.git.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH server for tests: {@code /usr/sbin/sshd} on a loopback port with a host key made
 * for it, letting in the user the tests run as with one client key made for it (public key only),
 * so that Git over SSH reaches the repositories of a {@link GitServer} by their paths. Everything
 * lives in one folder: the keys, {@code authorized_keys}, a {@code known_hosts} file holding the
 * host key, and sshd's log ({@code sshd.log}). Missing sshd skips the test, except in CI (bin/test
 * installs {@code openssh-server}).
 */
public final class GitSshServer implements AutoCloseable {
  private static final Path SSHD = Path.of("/usr/sbin/sshd");

  private final Path dir;
  private final int port;
  private final Process sshd;

  private GitSshServer(Path dir, int port, Process sshd) {
    this.dir = dir;
    this.port = port;
    this.sshd = sshd;
  }

  /**
   * Makes the keys and configuration in {@code dir} (created) and starts sshd; returns once its
   * port is open.
   */
  public static GitSshServer start(Path dir) throws Exception {
    requireSshd();
    Files.createDirectories(dir);
    keygen(dir.resolve("host_key"));
    keygen(dir.resolve("client_key"));
    keygen(dir.resolve("other_key"));
    Files.copy(dir.resolve("client_key.pub"), dir.resolve("authorized_keys"));
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("known_hosts"),
        "[127.0.0.1]:" + port + " " + publicKey(dir.resolve("host_key")));
    // StrictModes no: the folder is under /tmp, which sshd's check of the path's modes refuses.
    Files.writeString(
        dir.resolve("sshd_config"),
        String.join(
            "\n",
            "ListenAddress 127.0.0.1",
            "HostKey " + dir.resolve("host_key"),
            "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
            "PidFile " + dir.resolve("sshd.pid"),
            "StrictModes no",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "AllowUsers " + user(),
            "UsePAM no",
            "LogLevel VERBOSE",
            ""));
    if ("root".equals(user())) {
      Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation needs it
    }
    Process sshd = new ProcessBuilder(
            SSHD.toString(),
            "-D",
            "-e",
            "-p",
            String.valueOf(port),
            "-f",
            dir.resolve("sshd_config").toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("sshd.log").toFile())
        .start();
    GitSshServer server = new GitSshServer(dir, port, sshd);
    try {
      Poll.port(sshd, port, Duration.ofSeconds(20));
    } catch (Exception | AssertionError e) {
      server.close();
      throw new IOException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")), e);
    }
    return server;
  }

  /**
   * The {@code ssh://} URL of {@code repository} (a bare repository's folder), as the user the
   * tests run as.
   */
  public String url(Path repository) {
    return "ssh://" + user() + "@127.0.0.1:" + port + repository.toAbsolutePath();
  }

  /** The private key {@code authorized_keys} lets in. */
  public Path clientKey() {
    return dir.resolve("client_key");
  }

  /** A private key the server does not let in. */
  public Path otherKey() {
    return dir.resolve("other_key");
  }

  /** A {@code known_hosts} file holding this server's host key. */
  public Path knownHosts() {
    return dir.resolve("known_hosts");
  }

  /**
   * A {@code known_hosts} file giving this server's address another host key, as after a change of
   * key.
   */
  public Path changedKnownHosts() throws IOException {
    return Files.writeString(
        dir.resolve("changed_known_hosts"),
        "[127.0.0.1]:" + port + " " + publicKey(dir.resolve("other_key")));
  }

  /** What sshd logged. */
  public String log() throws IOException {
    return Files.readString(dir.resolve("sshd.log"));
  }

  @Override
  public void close() throws InterruptedException {
    sshd.destroy();
    if (!sshd.waitFor(10, TimeUnit.SECONDS)) {
      sshd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String user() {
    return System.getProperty("user.name");
  }

  private static String publicKey(Path key) throws IOException {
    return Files.readString(key.resolveSibling(key.getFileName() + ".pub")).strip() + "\n";
  }

  private static void keygen(Path key) throws Exception {
    Process p = new ProcessBuilder(List.of(
            "ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-C", "test", "-f", key.toString()))
        .redirectErrorStream(true)
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("ssh-keygen failed: " + out);
    }
  }

  /** sshd must be there in CI; elsewhere the test is skipped, saying what to install. */
  private static void requireSshd() {
    if (Files.isExecutable(SSHD)) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "sshd is missing in CI: bin/test installs it (apt-get install openssh-server)");
    }
    assumeThat(false).as("sshd installed (apt-get install openssh-server)").isTrue();
  }
}
