package io.promptd.git.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Git server for tests: a bare repository served by {@code git daemon} on a loopback port
 * (push enabled), and a working copy that commits with the real {@code git} command and pushes to
 * it. Git runs without the user's or the system's configuration. {@link #close()} stops the daemon;
 * {@link #stop()} and {@link #start()} take it away and bring it back on the same port.
 */
public final class GitServer implements AutoCloseable {
  private final Path base;
  private final Path work;
  private final Path home;
  private final int port;
  private Process daemon;

  private GitServer(Path base, Path work, Path home, int port) {
    this.base = base;
    this.work = work;
    this.home = home;
    this.port = port;
  }

  /**
   * A bare repository {@code prompts.git} under {@code dir} with one empty commit on {@code main},
   * not yet served.
   */
  public static GitServer create(Path dir) throws Exception {
    Path base = Files.createDirectories(dir.resolve("served"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Path home = Files.createDirectories(dir.resolve("home"));
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    GitServer g = new GitServer(base, work, home, port);
    g.git(base, "init", "--bare", "--initial-branch=main", "prompts.git");
    g.git(work, "init", "--initial-branch=main", ".");
    g.git(work, "remote", "add", "origin", g.fileUrl());
    return g;
  }

  /** Starts {@code git daemon} (again) on this server's port. */
  public GitServer start() throws Exception {
    daemon = new ProcessBuilder(
            "git",
            "daemon",
            "--export-all",
            "--reuseaddr",
            "--enable=receive-pack",
            "--listen=127.0.0.1",
            "--port=" + port,
            "--base-path=" + base,
            base.toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    Poll.port(daemon, port, Duration.ofSeconds(20));
    return this;
  }

  /** Stops the daemon: the remote is away. */
  public void stop() throws InterruptedException {
    if (daemon != null) {
      daemon.destroy();
      if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
        daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      daemon = null;
    }
  }

  /** The folder holding the served repository {@code prompts.git}. */
  public Path base() {
    return base;
  }

  /** The repository's {@code git://} URL. */
  public String url() {
    return "git://127.0.0.1:" + port + "/prompts.git";
  }

  /** The repository's {@code file://} URL. */
  public String fileUrl() {
    return base.resolve("prompts.git").toUri().toString();
  }

  /**
   * Writes {@code files} (path to text; a null text deletes) in the working copy and commits them;
   * returns the id.
   */
  public String commit(String message, Map<String, String> files) throws Exception {
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = work.resolve(f.getKey());
      if (f.getValue() == null) {
        Files.deleteIfExists(p);
      } else {
        Files.createDirectories(p.getParent());
        Files.writeString(p, f.getValue());
      }
    }
    git(work, "add", "-A", ".");
    git(work, "commit", "-q", "--allow-empty", "-m", message);
    return git(work, "rev-parse", "HEAD").strip();
  }

  /**
   * Pushes {@code main} to the server's repository (over {@code file://}, whether the daemon runs
   * or not).
   */
  public void push() throws Exception {
    git(work, "push", "-q", "origin", "main");
  }

  /** Moves {@code main} back to {@code commit} and force-pushes it. */
  public void forcePush(String commit) throws Exception {
    git(work, "reset", "-q", "--hard", commit);
    git(work, "push", "-q", "--force", "origin", "main");
  }

  /**
   * Runs {@code git args} in {@code dir} without the user's configuration; returns what it printed.
   */
  public String git(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>(
        List.of("git", "-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.com"));
    command.addAll(List.of(args));
    ProcessBuilder b =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    b.environment().put("HOME", home.toString());
    b.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    Process p = b.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("git " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
