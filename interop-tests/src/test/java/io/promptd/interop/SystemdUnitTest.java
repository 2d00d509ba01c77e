package io.promptd.interop;

import static io.promptd.interop.Distribution.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import io.promptd.testing.Poll;
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
 * {@code docs/promptd.service}, the unit docs/deploy.md shows, against the release archive laid out
 * as that page says: unpacked at {@code /opt/promptd-VERSION} under a fresh root,
 * {@code /opt/promptd} a link to it. systemd itself is not run (this machine has none):
 * {@code systemd-analyze} checks the unit offline, and its {@code ExecStart} line is run as systemd
 * would run it, re-rooted.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SystemdUnitTest {
  private static final Path UNIT = Peers.ROOT.resolve("docs/promptd.service");
  private static final Path ANALYZE = Path.of("/usr/bin/systemd-analyze");

  @Test
  void theUnitStartsTheArchiveThroughItsLinkAndCallsItsStopASuccess(@TempDir Path dir)
      throws Exception {
    String unit = Files.readString(UNIT);
    assertThat(DocCommands.block(
            Peers.ROOT.resolve("docs/deploy.md"),
            "## 9. The release archive, under systemd",
            "ini"))
        .as("the unit docs/deploy.md shows")
        .isEqualTo(unit);
    Path root = dir.resolve("root");
    Path opt = Files.createDirectories(root.resolve("opt"));
    Path archive = Distribution.built().archive();
    assertThat(run(
                List.of("tar", "-xzf", archive.toString(), "-C", opt.toString()),
                Map.of(),
                dir,
                Duration.ofMinutes(1))
            .status())
        .isZero();
    String unpacked;
    try (var entries = Files.list(opt)) {
      unpacked = entries.findFirst().orElseThrow().getFileName().toString();
    }
    assertThat(unpacked).matches("promptd-[0-9].*");
    Files.createSymbolicLink(opt.resolve("promptd"), Path.of(unpacked));
    assertThat(Files.readString(opt.resolve("promptd/docs/promptd.service")))
        .as("the unit the archive carries")
        .isEqualTo(unit);

    List<String> exec =
        DocCommands.commands(DocCommands.unitValue(unit, "ExecStart"), Map.of()).getFirst();
    assertThat(root.resolve(exec.getFirst().substring(1)))
        .as("ExecStart's program in the archive's layout")
        .isExecutable();
    if (Files.isExecutable(ANALYZE)) {
      analyze(root, unit, dir);
    }

    // ExecStart, re-rooted: the example library for /srv/prompts, a free port for 3000, the token
    // from the environment file.
    int port = Peers.freePort();
    Path library = root.resolve("opt/promptd/examples/prompts");
    List<String> line = new ArrayList<>();
    for (String word : exec) {
      line.add(
          word.startsWith("/opt/")
              ? root + word
              : word.equals("/srv/prompts")
                  ? library.toString()
                  : word.equals("3000") ? String.valueOf(port) : word);
    }
    assertThat(line).as("the words replaced").contains(library.toString(), String.valueOf(port));
    ProcessBuilder pb = new ProcessBuilder(line)
        .directory(dir.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("serve.err").toFile());
    pb.environment().clear();
    pb.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "PROMPTD_TOKEN", "unit-test-token"));
    Process server = pb.start();
    try {
      Poll.port(server, port, Duration.ofSeconds(60));
      Result health = run(
          List.of(
              root.resolve("opt/promptd/bin/promptd").toString(),
              "health",
              "http://127.0.0.1:" + port + "/mcp"),
          Map.of("PATH", "/usr/bin:/bin"),
          dir,
          Duration.ofMinutes(1));
      assertThat(health.status()).as(health.err()).isZero();
    } finally {
      server.destroy(); // SIGTERM, as systemctl stop sends it
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    assertThat(server.exitValue())
        .as(Files.readString(dir.resolve("serve.err")))
        .isEqualTo(Integer.parseInt(DocCommands.unitValue(unit, "SuccessExitStatus")));
    assertThat(Files.readString(dir.resolve("serve.err"))).contains("serving 7 prompt(s)");
  }

  /**
   * {@code systemd-analyze verify} with the archive under {@code root} (and this machine's own
   * units, which it resolves dependencies against): no error and no warning — an unknown key is
   * only a warning; and the offline security review's exposure at most 5.0, "OK".
   */
  private static void analyze(Path root, String unit, Path dir) throws Exception {
    // This machine's units, but the masked ones (links to /dev/null, which the temporary folder's
    // clean-up complains of).
    Path system = Path.of("/usr/lib/systemd/system");
    Path units = Files.createDirectories(root.resolve("usr/lib/systemd/system"));
    try (var files = Files.walk(system)) {
      for (Path from : files.toList()) {
        Path to = units.resolve(system.relativize(from).toString());
        if (Files.isSymbolicLink(from)) {
          Path target = Files.readSymbolicLink(from);
          if (!target.isAbsolute()) {
            Files.createSymbolicLink(to, target);
          }
        } else if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to);
        }
      }
    }
    Path installed = Files.createDirectories(root.resolve("etc/systemd/system"));
    Files.writeString(installed.resolve("promptd.service"), unit);
    String path = "/etc/systemd/system/promptd.service";
    Result verify = run(
        List.of(ANALYZE.toString(), "verify", "--man=no", "--root=" + root, path),
        Map.of(),
        dir,
        Duration.ofMinutes(1));
    assertThat(verify.status()).as(verify.err()).isZero();
    assertThat(verify.out() + verify.err())
        .as("systemd-analyze verify's warnings")
        .isEmpty();
    Result security = run(
        List.of(
            ANALYZE.toString(),
            "security",
            "--offline=yes",
            "--threshold=50",
            "--root=" + root,
            path),
        Map.of(),
        dir,
        Duration.ofMinutes(1));
    assertThat(security.status()).as(security.out() + security.err()).isZero();
  }
}
