package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user installs, built from the jars this build made by {@code bin/image} (which runs {@code bin/release}):
 *
 * <ul>
 *   <li>the release archive, unpacked in a new folder, its {@code bin/promptd} run with a PATH that holds no java and
 *       no JAVA_HOME: the server's process must be the bundled runtime ({@code /proc/PID/exe}), and the start-up
 *       caches trained at build time must serve promptd's classes where the archive was unpacked (the JVM's
 *       class-loading log says where each class came from);
 *   <li>the container image, an OCI archive: its configuration (non-root user, entrypoint, command, one layer whose
 *       digest matches) and its layer's files are read here; where podman can run containers, it is loaded and run
 *       with a read-only root file system and the example library mounted at /prompts, and answers through the
 *       mapped port with the bearer token only.
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DistributionTest {
  private static final long MAX_BYTES = 60L * 1024 * 1024;

  @TempDir
  static Path built;

  private static Path archive;
  private static Path image;

  @BeforeAll
  static void build() throws Exception {
    Path out = built.resolve("out");
    List<String> command =
        List.of(Peers.ROOT.resolve("bin/image").toString(), "--no-build", out.toString());
    Result made = run(
        command,
        Map.of("JAVA_HOME", System.getProperty("java.home")),
        Peers.ROOT,
        Duration.ofMinutes(6));
    assertThat(made.status()).as(made.err()).isZero();
    image = Path.of(made.out().strip());
    try (var files = Files.list(out)) {
      archive = files
          .filter(f -> f.getFileName().toString().endsWith(".tar.gz"))
          .findFirst()
          .orElseThrow();
    }
  }

  @Test
  void theArchiveRunsWithoutAJdkOnItsOwnRuntime(@TempDir Path dir) throws Exception {
    assertThat(archive.getFileName().toString())
        .matches("promptd-.+-linux-(x64|aarch64)\\.tar\\.gz");
    assertThat(Files.size(archive)).as("archive size").isLessThanOrEqualTo(MAX_BYTES);

    Path user = Files.createDirectories(dir.resolve("user"));
    assertThat(run(
                List.of("tar", "-xzf", archive.toString(), "-C", user.toString()),
                Map.of(),
                user,
                Duration.ofMinutes(1))
            .status())
        .isZero();
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
    boolean aot =
        Files.exists(home.resolve("lib/promptd-stdio.aot")); // JDK 25+; a CDS archive before
    assertThat(aot || Files.exists(home.resolve("lib/promptd-stdio.jsa")))
        .as("a stdio start-up cache")
        .isTrue();
    assertThat(Files.exists(home.resolve(aot ? "lib/promptd-http.aot" : "lib/promptd-http.jsa")))
        .isTrue();
    Map<String, String> bare = Map.of("PATH", tools.toString(), "HOME", dir.toString());
    // What a user unpacking it reads first: the license, the README and the docs it links to.
    for (String doc :
        List.of("LICENSE", "NOTICE", "README.md", "docs/deploy.md", "docs/clients.md")) {
      assertThat(home.resolve(doc)).as("the archive carries " + doc).isRegularFile();
    }

    // The caches were made before the archive was packed, elsewhere: the JVM's class-loading log
    // shows that promptd's
    // own classes come from them here (the stdio cache for check, the HTTP one for serve --http).
    Path checkLog = dir.resolve("check-classes.log");
    Map<String, String> logged = new java.util.HashMap<>(bare);
    logged.put("PROMPTD_JAVA_OPTS", "-Xlog:class+load=info:file=" + checkLog);
    Result check = run(
        List.of(promptd.toString(), "check", "examples/prompts"),
        logged,
        home,
        Duration.ofMinutes(1));
    assertThat(check.status()).as(check.err()).isZero();
    assertThat(check.out() + check.err()).contains("0 error(s)");
    assertThat(Files.readString(checkLog))
        .contains("io.promptd.cli.Main source: shared objects file");

    int port = Peers.freePort();
    ProcessBuilder serve = new ProcessBuilder(
            promptd.toString(), "serve", "--http", String.valueOf(port), "examples/prompts")
        .directory(home.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("serve.err").toFile());
    serve.environment().clear();
    serve.environment().putAll(bare);
    Path serveLog = dir.resolve("serve-classes.log");
    serve.environment().put("PROMPTD_JAVA_OPTS", "-Xlog:class+load=info:file=" + serveLog);
    Process server = serve.start();
    try {
      Poll.port(server, port, Duration.ofSeconds(30));
      Path exe = Files.readSymbolicLink(Path.of("/proc", String.valueOf(server.pid()), "exe"));
      assertThat(exe).isEqualTo(home.resolve("runtime/bin/java").toRealPath());
      Result list = run(
          List.of(promptd.toString(), "list", "--url", "http://127.0.0.1:" + port + "/mcp"),
          bare,
          home,
          Duration.ofMinutes(1));
      assertThat(list.status()).as(list.err()).isZero();
      assertThat(list.out()).contains("explain").contains("brand-colors");
      Result stdio = run(
          List.of(
              promptd.toString(),
              "get",
              "explain",
              "code=x = 1",
              "--stdio",
              promptd + " serve examples/prompts"),
          bare,
          home,
          Duration.ofMinutes(1));
      assertThat(stdio.status()).as(stdio.err()).isZero();
      assertThat(stdio.out()).contains("x = 1");
    } finally {
      server.destroy();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    assertThat(Files.readString(dir.resolve("serve.err")))
        .contains("serving")
        .doesNotContain("Exception");
    assertThat(Files.readString(serveLog))
        .contains("io.promptd.mcp.http.HttpTransport source: shared objects file");
  }

  @Test
  void theImageRunsAsANonRootUserOffItsOwnLayer(@TempDir Path dir) throws Exception {
    assertThat(image.getFileName().toString()).matches("promptd-.+-image-(amd64|arm64)\\.tar");
    Path layout = Files.createDirectories(dir.resolve("oci"));
    assertThat(run(
                List.of("tar", "-xf", image.toString(), "-C", layout.toString()),
                Map.of(),
                dir,
                Duration.ofMinutes(1))
            .status())
        .isZero();
    assertThat(Files.readString(layout.resolve("oci-layout")))
        .contains("\"imageLayoutVersion\":\"1.0.0\"");
    JsonObject index = object(Files.readString(layout.resolve("index.json")));
    JsonObject manifest =
        object(blob(layout, index.array("manifests").orElseThrow().get(0)));
    JsonObject config = object(blob(layout, manifest.object("config").orElseThrow()));
    JsonObject run = config.object("config").orElseThrow();
    assertThat(run.string("User")).contains("10001:10001");
    List<String> entrypoint = strings(run.array("Entrypoint").orElseThrow());
    assertThat(entrypoint.getFirst()).isEqualTo("/opt/promptd/runtime/bin/java");
    assertThat(entrypoint)
        .contains("io.promptd.cli.Main")
        .anyMatch(a -> a.startsWith("-XX:AOTCache=") || a.startsWith("-XX:SharedArchiveFile="));
    assertThat(strings(run.array("Cmd").orElseThrow()))
        .containsExactly("serve", "--http", "8080", "--host", "0.0.0.0", "/prompts");
    assertThat(run.object("ExposedPorts").orElseThrow().get("8080/tcp")).isNotNull();
    assertThat(config.string("os")).contains("linux");
    JsonArray layers = manifest.array("layers").orElseThrow();
    assertThat(layers.size()).isEqualTo(1);
    Path layer = layout.resolve("blobs/sha256").resolve(digest(layers.get(0)));
    assertThat(sha256(layer)).isEqualTo(digest(layers.get(0)));
    assertThat(strings(config.object("rootfs").orElseThrow().array("diff_ids").orElseThrow()))
        .containsExactly("sha256:" + sha256(layer));
    Result listing =
        run(List.of("tar", "-tvf", layer.toString()), Map.of(), dir, Duration.ofMinutes(1));
    assertThat(listing.status()).isZero();
    assertThat(listing.out())
        .contains(
            "./opt/promptd/runtime/bin/java",
            "./opt/promptd/lib/promptd.jar",
            "./etc/passwd",
            "./prompts",
            "libc.so.6");
    Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
    assertThat(run(
                List.of("tar", "-xf", layer.toString(), "-C", rootfs.toString(), "./etc/passwd"),
                Map.of(),
                dir,
                Duration.ofMinutes(1))
            .status())
        .isZero();
    assertThat(Files.readString(rootfs.resolve("etc/passwd"))).contains("promptd:x:10001:10001:");
  }

  /**
   * Loads and runs the image with podman, where this machine can run containers (rootful podman with runc; a VM
   * without the kernel features gets the inspection above only). Read-only root file system, the example library
   * mounted read-only at /prompts, a bearer token and public URL from the environment.
   */
  @Test
  void theImageServesTheMountedLibraryOnAReadOnlyRoot(@TempDir Path dir) throws Exception {
    Path conf = dir.resolve("containers.conf");
    // No default ulimits: setting them is refused inside some VMs, and promptd needs none.
    Files.writeString(conf, "[containers]\ndefault_ulimits = []\n");
    Map<String, String> env = Map.of("CONTAINERS_CONF", conf.toString());
    List<String> podman = podman();
    Assumptions.assumeTrue(
        podman != null, "podman (and runc) not installed: the image was only inspected");
    String name = "promptd-test-" + ProcessHandle.current().pid();
    Result loaded =
        run(concat(podman, "load", "-i", image.toString()), env, dir, Duration.ofMinutes(3));
    assertThat(loaded.status()).as(loaded.err()).isZero();
    String ref = loaded
        .out()
        .lines()
        .filter(l -> l.startsWith("Loaded image:"))
        .findFirst()
        .orElseThrow()
        .substring("Loaded image:".length())
        .strip();
    int port = Peers.freePort();
    String url = "http://127.0.0.1:" + port + "/mcp";
    String token = "image-test-token-" + Long.toHexString(System.nanoTime());
    try {
      Result started = run(
          concat(
              podman,
              "run",
              "-d",
              "--name",
              name,
              "--read-only",
              "-p",
              "127.0.0.1:" + port + ":8080",
              "-e",
              "PROMPTD_TOKEN=" + token,
              "-e",
              "PROMPTD_PUBLIC_URL=" + url,
              "-e",
              "PROMPTD_CATALOG=1",
              "-v",
              Peers.ROOT.resolve("examples/prompts") + ":/prompts:ro",
              ref),
          env,
          dir,
          Duration.ofMinutes(2));
      Assumptions.assumeTrue(
          started.status() == 0, () -> "podman cannot run containers here: " + started.err());
      Poll.ok(URI.create("http://127.0.0.1:" + port + "/healthz"), Duration.ofSeconds(60));
      try (HttpClient http = HttpClient.newHttpClient()) {
        String body =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpRequest.Builder list = HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "prompts/list")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        assertThat(http.send(list.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
            .isEqualTo(401);
        HttpResponse<String> listed = http.send(
            list.header("Authorization", "Bearer " + token).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).contains("\"explain\"", "\"brand-colors\"");
        // PROMPTD_CATALOG=1: the web catalog's page, read from the jar by the bundled runtime, with
        // its policy.
        HttpResponse<String> page = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("/catalog/app.js");
        assertThat(page.headers().firstValue("content-security-policy").orElseThrow())
            .contains("script-src 'self'");
      }
      // The server runs as the image's user, not root: the host sees the container's process with
      // uid 10001.
      Result pid = run(
          concat(podman, "inspect", "--format", "{{.State.Pid}}", name),
          env,
          dir,
          Duration.ofMinutes(1));
      String status = Files.readString(Path.of("/proc", pid.out().strip(), "status"));
      assertThat(status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow())
          .matches("Uid:\\s+10001\\s.*");
      Result logs = run(concat(podman, "logs", name), env, dir, Duration.ofMinutes(1));
      assertThat(logs.out() + logs.err()).contains("serving 7 prompt(s)").doesNotContain(token);
    } finally {
      run(concat(podman, "rm", "-f", name), env, dir, Duration.ofMinutes(1));
      run(concat(podman, "rmi", "-f", ref), env, dir, Duration.ofMinutes(1));
    }
  }

  private static @org.jspecify.annotations.Nullable List<String> podman() {
    for (String d : List.of("/usr/bin", "/usr/sbin", "/bin")) {
      if (Files.isExecutable(Path.of(d, "podman"))) {
        for (String r : List.of("/usr/sbin/runc", "/usr/bin/runc")) {
          if (Files.isExecutable(Path.of(r))) {
            return List.of(d + "/podman", "--runtime", r);
          }
        }
      }
    }
    return null;
  }

  private static List<String> concat(List<String> head, String... tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(tail));
    return all;
  }

  private static JsonObject object(String json) {
    return (JsonObject) JsonCodec.parse(json);
  }

  private static String blob(Path layout, Json descriptor) throws IOException {
    return Files.readString(layout.resolve("blobs/sha256").resolve(digest(descriptor)));
  }

  private static String digest(Json descriptor) {
    return ((JsonObject) descriptor).string("digest").orElseThrow().substring("sha256:".length());
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      out.add(((JsonString) array.get(i)).value());
    }
    return out;
  }

  private static String sha256(Path file) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (var in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        md.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private record Result(int status, String out, String err) {}

  private static Result run(List<String> command, Map<String, String> env, Path in, Duration limit)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("release-out", ".txt");
    Path err = Files.createTempFile("release-err", ".txt");
    try {
      ProcessBuilder pb = new ProcessBuilder(command)
          .directory(in.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
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
}
