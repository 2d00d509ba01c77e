package io.promptd.interop;

import static io.promptd.interop.Distribution.concat;
import static io.promptd.interop.Distribution.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
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
import java.util.HashMap;
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
 * What a user installs, built from the jars this build made by {@code bin/image} (which runs
 * {@code bin/release}):
 *
 * <ul>
 *   <li>the release archive, unpacked in a new folder, its {@code bin/promptd} run with a PATH that
 *       holds no java and no JAVA_HOME: the server's process must be the bundled runtime
 *       ({@code /proc/PID/exe}), and the start-up caches trained at build time must serve promptd's
 *       classes where the archive was unpacked (the JVM's class-loading log says where each class
 *       came from);
 *   <li>the container image, an OCI archive: its configuration (non-root user, entrypoint, command,
 *       one layer whose digest matches) and its layer's files are read here; where podman can run
 *       containers, it is loaded and run with a read-only root file system and the example library
 *       mounted at /prompts, and answers through the mapped port with the bearer token only.
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DistributionTest {
  private static final long MAX_BYTES = 60L * 1024 * 1024;

  private static Path archive;
  private static Path image;

  // The first class to ask builds the distribution (up to Distribution's own 12 minutes): longer
  // than the default 120 s for a lifecycle method on a loaded machine.
  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void build() throws Exception {
    Distribution.Built built = Distribution.built();
    archive = built.archive();
    image = built.image();
  }

  @Test
  void theArchiveRunsWithoutAJdkOnItsOwnRuntime(@TempDir Path dir) throws Exception {
    assertThat(archive.getFileName().toString())
        .matches("promptd-.+-linux-(x64|aarch64)\\.tar\\.gz");
    assertThat(Files.size(archive)).as("archive size").isLessThanOrEqualTo(MAX_BYTES);
    DocCommands.assertStatedSize(
        Peers.ROOT.resolve("docs/install.md"),
        "`target/release/promptd-VERSION-linux-x64.tar.gz`",
        Files.size(archive));

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
    Map<String, String> logged = new HashMap<>(bare);
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
    int adminPort = Peers.freePort();
    ProcessBuilder serve = new ProcessBuilder(
            promptd.toString(),
            "serve",
            "--http",
            String.valueOf(port),
            "--admin-port",
            String.valueOf(adminPort),
            "examples/prompts")
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
      // The process metrics read com.sun.management: the runtime must carry jdk.management.
      try (HttpClient http = HttpClient.newHttpClient()) {
        HttpResponse<String> metrics = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
            .contains("jvm_memory_used_bytes{")
            .contains("process_cpu_seconds_total ")
            .contains("process_open_fds ")
            .contains("process_resident_memory_bytes ");
      }
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
    // The MCP Registry's proof that the image belongs to the server.json of this name.
    assertThat(run.object("Labels").orElseThrow().string("io.modelcontextprotocol.server.name"))
        .contains(ServerJsonTest.NAME);
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
   * Loads and runs the image with podman, where this machine can run containers (rootful podman
   * with runc; a VM without the kernel features gets the inspection above only), with the README's
   * commands as written: read-only root file system, the example library mounted read-only at
   * /prompts, a bearer token and public URL from the environment, podman's default ulimits turned
   * off by the README's containers.conf; then its health check.
   */
  @Test
  void theImageServesTheMountedLibraryOnAReadOnlyRoot(@TempDir Path dir) throws Exception {
    Path readme = Peers.ROOT.resolve("docs/install.md");
    List<List<String>> commands = DocCommands.commands(
        DocCommands.block(readme, "## Container image", "sh"),
        Map.of("PWD", Peers.ROOT.toString()));
    assertThat(commands).hasSize(3);
    Path conf = dir.resolve("no-ulimits.conf");
    Files.writeString(conf, DocCommands.block(readme, "## Container image", "toml"));
    Map<String, String> env = Map.of("CONTAINERS_CONF", conf.toString());
    List<String> podman = podman();
    Assumptions.assumeTrue(
        podman != null, "podman (and runc) not installed: the image was only inspected");
    String name = "promptd-test-" + ProcessHandle.current().pid();
    List<String> load = commands.get(0);
    assertThat(load.subList(0, 3)).containsExactly("podman", "load", "-i");
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
    // The README's run line with this test's port, token, name and image; the catalog on.
    List<String> readmeRun = commands.get(1);
    assertThat(readmeRun.subList(0, 2)).containsExactly("podman", "run");
    assertThat(readmeRun)
        .contains("--read-only", Peers.ROOT.resolve("examples/prompts") + ":/prompts:ro");
    Map<String, String> ours = new HashMap<>(Map.of(
        "promptd",
        name,
        "127.0.0.1:8080:8080",
        "127.0.0.1:" + port + ":8080",
        "PROMPTD_TOKEN=change-me",
        "PROMPTD_TOKEN=" + token,
        "PROMPTD_PUBLIC_URL=http://127.0.0.1:8080/mcp",
        "PROMPTD_PUBLIC_URL=" + url,
        readmeRun.getLast(),
        ref));
    List<String> runLine = new ArrayList<>(podman);
    for (String word : readmeRun.subList(1, readmeRun.size() - 1)) {
      String replaced = ours.remove(word);
      runLine.add(replaced == null ? word : replaced);
    }
    runLine.addAll(List.of("-e", "PROMPTD_CATALOG=1", ours.remove(readmeRun.getLast())));
    assertThat(ours).as("words of the README's run line this test replaces").isEmpty();
    try {
      Result started = run(runLine, env, dir, Duration.ofMinutes(2));
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
      // The README's health check (the image has no shell for bin/promptd), the same command as the
      // one in the docs' compose file and exec form.
      List<String> exec = commands.get(2);
      assertThat(exec.subList(0, 3)).containsExactly("podman", "exec", "promptd");
      List<String> check = exec.subList(3, exec.size());
      assertThat(
              DocCommands.jsonArrayAfter(Peers.ROOT.resolve("docs/scale-out.md"), "test: [\"CMD\""))
          .isEqualTo(concat(List.of("CMD"), check.toArray(String[]::new)));
      assertThat(
              DocCommands.jsonArrayAfter(Peers.ROOT.resolve("docs/deploy.md"), "`[\"/opt/promptd/"))
          .isEqualTo(check);
      Result healthy = run(
          concat(concat(podman, "exec", name), check.toArray(String[]::new)),
          env,
          dir,
          Duration.ofMinutes(1));
      assertThat(healthy.status()).as(healthy.err()).isZero();
      assertThat(healthy.out())
          .isEqualTo("http://127.0.0.1:8080/healthz: {\"status\":\"alive\"}\n");
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
