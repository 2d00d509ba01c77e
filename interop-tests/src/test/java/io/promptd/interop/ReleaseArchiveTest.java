package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it: {@code bin/release} packs the jars this build made, the archive is unpacked
 * in a new folder and its {@code bin/promptd} is run with a PATH that holds no java and no JAVA_HOME. The server's
 * process must be the bundled runtime ({@code /proc/PID/exe}), and the start-up caches trained at build time must
 * serve promptd's classes where the archive was unpacked (the JVM's class-loading log says where each class came from).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ReleaseArchiveTest {
  private static final long MAX_BYTES = 60L * 1024 * 1024;

  @Test
  void theArchiveRunsWithoutAJdkOnItsOwnRuntime(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    List<String> release = List.of(Peers.ROOT.resolve("bin/release").toString(), "--no-build", out.toString());
    Result built = run(release, Map.of("JAVA_HOME", System.getProperty("java.home")), Peers.ROOT, Duration.ofMinutes(6));
    assertThat(built.status()).as(built.err()).isZero();
    Path archive = Path.of(built.out().strip());
    assertThat(archive.getFileName().toString()).matches("promptd-.+-linux-(x64|aarch64)\\.tar\\.gz");
    assertThat(Files.size(archive)).as("archive size").isLessThanOrEqualTo(MAX_BYTES);

    Path user = Files.createDirectories(dir.resolve("user"));
    assertThat(run(List.of("tar", "-xzf", archive.toString(), "-C", user.toString()), Map.of(), user,
        Duration.ofMinutes(1)).status()).isZero();
    Path home;
    try (var entries = Files.list(user)) {
      home = entries.findFirst().orElseThrow();
    }
    Path promptd = home.resolve("bin/promptd");
    // A PATH with only what the launcher script itself calls: no java anywhere on it.
    Path tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : List.of("sh", "dirname", "readlink")) {
      Files.createSymbolicLink(tools.resolve(tool), which(tool));
    }
    boolean aot = Files.exists(home.resolve("lib/promptd-stdio.aot")); // JDK 25+; a CDS archive before
    assertThat(aot || Files.exists(home.resolve("lib/promptd-stdio.jsa"))).as("a stdio start-up cache").isTrue();
    assertThat(Files.exists(home.resolve(aot ? "lib/promptd-http.aot" : "lib/promptd-http.jsa"))).isTrue();
    Map<String, String> bare = Map.of("PATH", tools.toString(), "HOME", dir.toString());

    // The caches were made before the archive was packed, elsewhere: the JVM's class-loading log shows that promptd's
    // own classes come from them here (the stdio cache for check, the HTTP one for serve --http).
    Path checkLog = dir.resolve("check-classes.log");
    Map<String, String> logged = new java.util.HashMap<>(bare);
    logged.put("PROMPTD_JAVA_OPTS", "-Xlog:class+load=info:file=" + checkLog);
    Result check = run(List.of(promptd.toString(), "check", "examples/prompts"), logged, home, Duration.ofMinutes(1));
    assertThat(check.status()).as(check.err()).isZero();
    assertThat(check.out() + check.err()).contains("0 error(s)");
    assertThat(Files.readString(checkLog)).contains("io.promptd.cli.Main source: shared objects file");

    int port = Peers.freePort();
    ProcessBuilder serve = new ProcessBuilder(promptd.toString(), "serve", "--http", String.valueOf(port),
        "examples/prompts").directory(home.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("serve.err").toFile());
    serve.environment().clear();
    serve.environment().putAll(bare);
    Path serveLog = dir.resolve("serve-classes.log");
    serve.environment().put("PROMPTD_JAVA_OPTS", "-Xlog:class+load=info:file=" + serveLog);
    Process server = serve.start();
    try {
      awaitPort(server, port);
      Path exe = Files.readSymbolicLink(Path.of("/proc", String.valueOf(server.pid()), "exe"));
      assertThat(exe).isEqualTo(home.resolve("runtime/bin/java").toRealPath());
      Result list = run(List.of(promptd.toString(), "list", "--url", "http://127.0.0.1:" + port + "/mcp"), bare,
          home, Duration.ofMinutes(1));
      assertThat(list.status()).as(list.err()).isZero();
      assertThat(list.out()).contains("explain").contains("brand-colors");
      Result stdio = run(List.of(promptd.toString(), "get", "explain", "code=x = 1", "--stdio",
          promptd + " serve examples/prompts"), bare, home, Duration.ofMinutes(1));
      assertThat(stdio.status()).as(stdio.err()).isZero();
      assertThat(stdio.out()).contains("x = 1");
    } finally {
      server.destroy();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    assertThat(Files.readString(dir.resolve("serve.err"))).contains("serving").doesNotContain("Exception");
    assertThat(Files.readString(serveLog)).contains("io.promptd.mcp.http.HttpTransport source: shared objects file");
  }

  private record Result(int status, String out, String err) {}

  private static Result run(List<String> command, Map<String, String> env, Path in, Duration limit)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("release-out", ".txt");
    Path err = Files.createTempFile("release-err", ".txt");
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(in.toFile()).redirectOutput(out.toFile())
          .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      if (env.containsKey("PATH")) {
        pb.environment().clear();
      }
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("did not finish in " + limit + ": " + command);
      }
      return new Result(p.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static Path which(String tool) {
    for (String d : new ArrayList<>(List.of("/usr/bin", "/bin"))) {
      Path p = Path.of(d, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new AssertionError("no " + tool + " in /usr/bin or /bin");
  }

  private static void awaitPort(Process server, int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        throw new AssertionError("the server exited with " + server.exitValue());
      }
      try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new AssertionError("the server did not open port " + port);
  }
}
