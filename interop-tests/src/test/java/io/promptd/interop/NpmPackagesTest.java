package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.testing.Poll;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The npm packages as users get them, from the files {@code bin/release} wrote
 * ({@code npm/promptd-VERSION.tgz}, {@code npm/promptd-runtime-linux-x64-VERSION.tgz};
 * {@link Distribution} runs it): installed with npm into an empty folder with an empty npm cache,
 * published with {@code bin/publish-npm} to a real registry on loopback ({@link NpmRegistry}, no
 * uplinks) and run by {@code npx -y promptd}, and started that way by the real Claude Code. Every
 * run has a PATH of its own that holds node, npm, npx and sh only (/usr/bin has a Java 17: it is
 * not on it) and no JAVA_HOME, unless a case gives one; each serves the example library over stdio
 * (initialize, prompts/list, prompts/get explain) to a client in this test, which checks that
 * stdout carried JSON-RPC and nothing else.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class NpmPackagesTest {
  /**
   * The time npm pack writes for every file, and the one the caches were trained with for every
   * jar.
   */
  private static final FileTime PACKED = FileTime.from(Instant.parse("1985-10-26T08:15:00Z"));

  private static final Set<String> EXAMPLES = Set.of(
      "brand-colors",
      "explain",
      "git-commit-message",
      "review",
      "summarize",
      "translate",
      "write-tests");

  @TempDir
  static Path shared;

  private static Path main;
  private static Path runtime;
  private static String version;
  private static Path tools;
  private static Path library;
  private static @Nullable NpmRegistry registry;
  private static boolean published;

  // The first class to ask builds the distribution (up to Distribution's own 12 minutes): longer
  // than the default 120 s for a lifecycle method on a loaded machine.
  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void build() throws Exception {
    NpmRegistry.require();
    Path npm = Distribution.built().archive().resolveSibling("npm");
    try (Stream<Path> files = Files.list(npm)) {
      List<Path> all = files.sorted().toList();
      main = all.stream()
          .filter(f -> f.getFileName().toString().matches("promptd-\\d.*\\.tgz"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no promptd-VERSION.tgz in " + npm + ": " + all));
      runtime = all.stream()
          .filter(f -> f.getFileName().toString().startsWith("promptd-runtime-linux-x64-"))
          .findFirst()
          .orElseThrow(
              () -> new AssertionError("no promptd-runtime-linux-x64-VERSION.tgz in " + npm));
    }
    String name = main.getFileName().toString();
    version = name.substring("promptd-".length(), name.length() - ".tgz".length());
    assertThat(runtime.getFileName().toString())
        .isEqualTo("promptd-runtime-linux-x64-" + version + ".tgz");
    // A PATH with Node's three commands and sh (npm exec runs a package's bin through sh -c): no
    // java.
    tools = Files.createDirectories(shared.resolve("tools"));
    for (String tool : List.of("node", "npm", "npx", "sh")) {
      Files.createSymbolicLink(tools.resolve(tool), which(tool));
    }
    library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), shared.resolve("library"));
    registry = NpmRegistry.start(shared.resolve("registry"));
  }

  @AfterAll
  static void stopRegistry() throws Exception {
    if (registry != null) {
      registry.close();
    }
  }

  /**
   * (a) {@code npm install FILE FILE} into an empty folder, empty cache, no Java:
   * installed/.bin/promptd serves; the JVM is the runtime package's; the start-up cache was used
   * (promptd's classes come from it, the JVM warned of no mismatch) and the jars have the time it
   * was trained with again.
   */
  @Test
  void theTwoTarballsServeWithoutJava(@TempDir Path dir) throws Exception {
    Path app = install(dir, List.of(main.toString(), runtime.toString()));
    Path rt = app.resolve("node_modules/@promptd/runtime-linux-x64");
    assertThat(rt.resolve("lib/promptd-stdio.aot")).isRegularFile();
    assertThat(rt.resolve("lib/promptd-http.aot")).isRegularFile();
    // As npm installed them (whitespace dropped): the platform fields, the name the MCP Registry
    // checks, the exact versions of the five runtime packages, and no install script.
    String rtJson = Files.readString(rt.resolve("package.json")).replaceAll("\\s", "");
    assertThat(rtJson).contains("\"os\":[\"linux\"]", "\"cpu\":[\"x64\"]", "\"libc\":[\"glibc\"]");
    String json =
        Files.readString(app.resolve("node_modules/promptd/package.json")).replaceAll("\\s", "");
    assertThat(json)
        .contains("\"mcpName\":\"io.github.promptd/promptd\"")
        .doesNotContain("\"scripts\"");
    for (String p :
        List.of("linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64", "win32-x64")) {
      assertThat(json).contains("\"@promptd/runtime-" + p + "\":\"" + version + "\"");
    }

    Path classes = dir.resolve("classes.log");
    Path paths = dir.resolve("class-path.log");
    Map<String, String> env = bare(dir);
    env.put(
        "PROMPTD_JAVA_OPTS",
        "-Xlog:class+load=info:file=" + classes + " -Xlog:class+path=info:file=" + paths);
    Session s = Session.run(
        List.of(app.resolve("node_modules/.bin/promptd").toString(), "serve", library.toString()),
        env,
        app,
        Duration.ofMinutes(1));
    s.assertServed();
    assertThat(s.java()).isEqualTo(rt.resolve("runtime/bin/java").toRealPath());
    assertThat(Files.readString(classes))
        .contains("io.promptd.cli.Main source: shared objects file");
    assertThat(Files.readString(paths))
        .contains("Archived boot classpath validation: passed")
        .doesNotContain("validation: failed");
    assertThat(s.err()).doesNotContain("[warning][aot", "[warning][cds", "[error]");
    try (Stream<Path> jars = Files.list(app.resolve("node_modules/promptd/lib"))) {
      for (Path jar : jars.filter(j -> j.toString().endsWith(".jar")).toList()) {
        assertThat(Files.getLastModifiedTime(jar)).as(jar.toString()).isEqualTo(PACKED);
      }
    }
  }

  /**
   * The launcher passes the JVM's exit status on (an unknown command: 2, as the archive's
   * bin/promptd), and a SIGTERM sent to the launcher alone reaches the JVM, which ends (shutdown
   * hooks run: status 143), and so does the launcher.
   */
  @Test
  void theExitStatusAndSignalsReachTheJvm(@TempDir Path dir) throws Exception {
    Path app = install(dir, List.of(main.toString(), runtime.toString()));
    String bin = app.resolve("node_modules/.bin/promptd").toString();
    Result unknown =
        Distribution.run(List.of(bin, "no-such-command"), bare(dir), app, Duration.ofMinutes(1));
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.out()).isEmpty();
    assertThat(unknown.err()).contains("unknown command 'no-such-command'");

    Path err = dir.resolve("serve.err");
    ProcessBuilder pb = new ProcessBuilder(bin, "serve", library.toString())
        .directory(app.toFile())
        .redirectError(err.toFile());
    pb.environment().clear();
    pb.environment().putAll(bare(dir));
    Process launcher = pb.start(); // stdin stays open: the server waits for requests
    try {
      Poll.until(
          Duration.ofSeconds(60),
          Duration.ofMillis(50),
          () -> "promptd serving: " + read(err),
          () -> read(err).contains("serving 7 prompt(s) over stdio"));
      List<ProcessHandle> jvm = launcher.toHandle().children().toList();
      assertThat(jvm).hasSize(1);
      assertThat(Files.readSymbolicLink(
              Path.of("/proc", String.valueOf(jvm.getFirst().pid()), "exe")))
          .isEqualTo(app.resolve("node_modules/@promptd/runtime-linux-x64/runtime/bin/java")
              .toRealPath());
      launcher.destroy(); // SIGTERM to the launcher's process only
      assertThat(launcher.waitFor(30, TimeUnit.SECONDS))
          .as("the launcher ended")
          .isTrue();
      assertThat(launcher.exitValue()).isEqualTo(143);
      jvm.getFirst().onExit().get(30, TimeUnit.SECONDS);
      assertThat(jvm.getFirst().isAlive()).isFalse();
    } finally {
      launcher.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      launcher.destroyForcibly();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * (b) {@code --omit=optional}: with a Java 21+ in JAVA_HOME it runs on that; with a Java 17
   * there, or no Java at all, it ends with status 3, one line on stderr that names both ways out,
   * and nothing on stdout.
   */
  @Test
  void withoutTheRuntimePackageItTakesAJava21OrSaysWhatToDo(@TempDir Path dir) throws Exception {
    Path app = install(dir, List.of("--omit=optional", main.toString()));
    assertThat(app.resolve("node_modules/@promptd")).doesNotExist();
    Path bin = app.resolve("node_modules/.bin/promptd");
    Path javaHome = Path.of(System.getProperty("java.home"));
    Map<String, String> env = bare(dir);
    env.put("JAVA_HOME", javaHome.toString());
    Session s = Session.run(
        List.of(bin.toString(), "serve", library.toString()), env, app, Duration.ofMinutes(1));
    s.assertServed();
    assertThat(s.java()).isEqualTo(javaHome.resolve("bin/java").toRealPath());

    for (String home : new String[] {null, "/usr/lib/jvm/java-17-openjdk-amd64"}) {
      if (home != null && !Files.isRegularFile(Path.of(home, "release"))) {
        continue;
      }
      Map<String, String> none = bare(dir);
      if (home != null) {
        none.put("JAVA_HOME", home);
      }
      Result r = Distribution.run(
          List.of(bin.toString(), "serve", library.toString()), none, app, Duration.ofMinutes(1));
      assertThat(r.status()).as(r.err()).isEqualTo(3);
      assertThat(r.out()).isEmpty();
      assertThat(r.err().lines().toList()).hasSize(1);
      assertThat(r.err())
          .startsWith("promptd: ")
          .contains("@promptd/runtime-linux-x64 is not installed")
          .contains("without --omit=optional")
          .contains("install Java 21+ and set JAVA_HOME");
      if (home != null) {
        assertThat(r.err()).contains("Java 17 in $JAVA_HOME");
      }
    }
  }

  /**
   * (c) {@code bin/publish-npm} to the registry (runtime package first, with the dist-tag that
   * {@code npx -y promptd} resolves), then {@code npx -y promptd serve DIR} with that registry, an
   * empty npm cache and no Java: it serves, on the runtime npx installed from the registry.
   */
  @Test
  void npxFromTheRegistryServesWithAnEmptyCache(@TempDir Path dir) throws Exception {
    publish();
    Path cache = dir.resolve("npm-cache");
    Map<String, String> env = npxEnv(dir, cache);
    Path work = Files.createDirectories(dir.resolve("work"));
    // The README's first npx line, its folder this test's library.
    List<String> line = DocCommands.commands(readmeBlock("sh"), Map.of()).getFirst();
    assertThat(line).containsExactly("npx", "-y", "promptd", "serve", "./prompts");
    List<String> command = new ArrayList<>(line);
    command.set(0, tools.resolve("npx").toString());
    command.set(command.size() - 1, library.toString());
    Session s = Session.run(command, env, work, Duration.ofMinutes(3));
    s.assertServed();
    assertThat(s.java().toString())
        .startsWith(cache.resolve("_npx").toRealPath().toString())
        .endsWith("/node_modules/@promptd/runtime-linux-x64/runtime/bin/java");
  }

  /**
   * (d) The real Claude Code configured with {@code npx -y promptd serve DIR} (the registry, an
   * empty cache and a PATH without Java in the server's env): the prompts are its slash commands,
   * and one renders: the model gets its text.
   */
  @Test
  void claudeCodeStartsItWithNpx(@TempDir Path dir) throws Exception {
    ClaudeCode.require();
    publish();
    Map<String, String> env = npxEnv(dir, dir.resolve("npm-cache"));
    // The README's JSON configuration, its folder this test's library, with the registry in the
    // server's env.
    JsonObject server = ((JsonObject) JsonCodec.parse(readmeBlock("json")))
        .object("mcpServers")
        .orElseThrow()
        .object("promptd")
        .orElseThrow();
    List<String> command = new ArrayList<>(List.of(server.string("command").orElseThrow()));
    JsonArray args = server.array("args").orElseThrow();
    for (int i = 0; i < args.size(); i++) {
      command.add(((JsonString) args.get(i)).value());
    }
    assertThat(command).containsExactly("npx", "-y", "promptd", "serve", "/abs/path/to/prompts");
    // The README's claude mcp add line names the same command.
    assertThat(DocCommands.commands(readmeBlock("sh"), Map.of()).get(1))
        .containsExactly(
            "claude",
            "mcp",
            "add",
            "promptd",
            "--",
            "npx",
            "-y",
            "promptd",
            "serve",
            "/abs/path/to/prompts");
    command.set(command.size() - 1, library.toString());
    String entry = ClaudeCode.stdioServer(command, env);
    try (ModelStandIn model = ModelStandIn.start(ClaudeCode::anthropic);
        ClaudeCode claude = ClaudeCode.start("npx", dir.resolve("claude"), entry, model)) {
      claude.awaitCommand("translate", Duration.ofSeconds(120));
      assertThat(claude.menuCommands("/mcp__promptd__"))
          .containsExactlyInAnyOrderElementsOf(EXAMPLES);
      claude.send("/mcp__promptd__translate hello French");
      claude.awaitForm(Duration.ofSeconds(60));
      claude.accept();
      claude.awaitReplyAcceptingForms(Duration.ofSeconds(60));
      assertThat(model
              .await("Translate the text below into French", Duration.ofSeconds(60))
              .body())
          .contains("Reply with the translation only.\\n\\nhello");
      Matrix.record(
          "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → npx -y promptd",
          "stdio",
          "modern 2026-07-28",
          "promptd from npm (a local registry, empty cache, no Java on PATH): all 7 prompts offered as slash"
              + " commands; /mcp__promptd__translate hello French rendered, its text sent to the model");
    } finally {
      TerminalClients.endProcessesIn(library.toString());
    }
  }

  private static String readmeBlock(String lang) throws IOException {
    return DocCommands.block(
        Peers.ROOT.resolve("docs/install.md"), "## From npm: no Java needed", lang);
  }

  /** Publishes both packages once, as the release does, with the dist-tag {@code latest}. */
  private static synchronized void publish() throws Exception {
    if (published) {
      return;
    }
    NpmRegistry r = Objects.requireNonNull(registry);
    Path home = Files.createDirectories(shared.resolve("publisher"));
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("JAVA_HOME");
    env.put("HOME", home.toString());
    env.put("npm_config_userconfig", r.npmrc(home.resolve(".npmrc"), true).toString());
    env.put("npm_config_cache", home.resolve("npm-cache").toString());
    env.put("npm_config_update_notifier", "false");
    Result done = Processes.run(
        List.of(
            Peers.ROOT.resolve("bin/publish-npm").toString(),
            main.getParent().toString(),
            "--registry",
            r.url(),
            "--tag",
            "latest"),
        env,
        home,
        Duration.ofMinutes(5));
    assertThat(done.status()).as(done.out() + done.err()).isZero();
    String log = done.err();
    assertThat(log.indexOf("publish-npm: @promptd/runtime-linux-x64@" + version))
        .as("the runtime package is published before promptd:\n" + log)
        .isGreaterThanOrEqualTo(0)
        .isLessThan(log.indexOf("publish-npm: promptd@" + version));
    for (String name : List.of("promptd", "@promptd/runtime-linux-x64")) {
      JsonObject packument = Objects.requireNonNull(r.packument(name), name);
      assertThat(packument.object("dist-tags").orElseThrow().string("latest")).contains(version);
    }
    published = true;
  }

  /**
   * Installs {@code args} (files, options) into a new project folder with an empty cache; returns
   * the folder.
   */
  private static Path install(Path dir, List<String> args) throws Exception {
    Path app = Files.createDirectories(dir.resolve("app"));
    Map<String, String> env = bare(dir);
    env.put("npm_config_cache", dir.resolve("npm-cache").toString());
    env.put(
        "npm_config_userconfig",
        Objects.requireNonNull(registry).npmrc(dir.resolve("npmrc"), false).toString());
    List<String> command = new ArrayList<>(
        List.of(tools.resolve("npm").toString(), "install", "--no-audit", "--no-fund"));
    command.addAll(args);
    Result r = Distribution.run(command, env, app, Duration.ofMinutes(3));
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(app.resolve("node_modules/.bin/promptd")).exists();
    return app;
  }

  /**
   * npx's environment: the registry, {@code cache} (empty), a user npmrc naming the registry, no
   * Java.
   */
  private static Map<String, String> npxEnv(Path dir, Path cache) throws Exception {
    NpmRegistry r = Objects.requireNonNull(registry);
    Map<String, String> env = bare(dir);
    env.put("npm_config_registry", r.url());
    env.put("npm_config_cache", cache.toString());
    env.put("npm_config_userconfig", r.npmrc(dir.resolve("user.npmrc"), false).toString());
    return env;
  }

  /**
   * An environment with the tools' PATH only: no JAVA_HOME, a HOME of the test's, npm's update
   * check off.
   */
  private static Map<String, String> bare(Path dir) throws IOException {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", tools.toString());
    env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
    env.put("npm_config_update_notifier", "false");
    return env;
  }

  private static Path which(String tool) {
    for (String d : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
      Path p = Path.of(d, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new AssertionError("no " + tool + " in /usr/local/bin, /usr/bin or /bin");
  }

  /**
   * A stdio session as a client has it: initialize, initialized, prompts/list, prompts/get explain,
   * each answer read before the next request; then stdin closed and the process awaited. While it
   * runs, the JVM among the process's descendants is found ({@code /proc/PID/exe}).
   */
  record Session(List<String> answers, String rest, String err, int status, Path java) {
    static Session run(List<String> command, Map<String, String> env, Path in, Duration limit)
        throws Exception {
      Path err = Files.createTempFile(in, "stderr", ".txt");
      ProcessBuilder pb =
          new ProcessBuilder(command).directory(in.toFile()).redirectError(err.toFile());
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      StringBuilder rest = new StringBuilder();
      Thread reader = Thread.ofVirtual().start(() -> {
        try (BufferedReader r =
            new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8))) {
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            lines.add(line);
          }
        } catch (IOException e) {
          // the process ended
        }
      });
      long deadline = System.nanoTime() + limit.toNanos();
      List<String> answers = new ArrayList<>();
      Path java = null;
      try (OutputStream stdin = p.getOutputStream()) {
        String[] requests = {
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"npm-test\",\"version\":\"1\"}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/get\",\"params\":{\"name\":\"explain\","
              + "\"arguments\":{\"code\":\"x = 1\"}}}",
        };
        for (int i = 0; i < requests.length; i++) {
          stdin.write((requests[i] + "\n").getBytes(UTF_8));
          stdin.flush();
          String answer =
              lines.poll(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
          if (answer == null) {
            throw new AssertionError("no answer to request " + (i + 1) + " within " + limit + ": "
                + command + "\n" + Files.readString(err));
          }
          answers.add(answer);
          if (i == 0) {
            stdin.write(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(UTF_8));
            java = jvm(p);
          }
        }
      } finally {
        if (!p.waitFor(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS)) {
          p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
          throw new AssertionError("did not end after stdin closed: " + command);
        }
        reader.join(10_000);
      }
      for (String l; (l = lines.poll()) != null; ) {
        rest.append(l).append('\n');
      }
      return new Session(
          answers,
          rest.toString(),
          Files.readString(err),
          p.exitValue(),
          java == null ? Path.of("none") : java);
    }

    private static @Nullable Path jvm(Process p) throws IOException {
      for (ProcessHandle h : p.toHandle().descendants().toList()) {
        Path exe = Path.of("/proc", String.valueOf(h.pid()), "exe");
        try {
          Path target = Files.readSymbolicLink(exe);
          if (target.getFileName().toString().equals("java")) {
            return target;
          }
        } catch (IOException e) {
          // gone, or not ours to read
        }
      }
      return null;
    }

    void assertServed() {
      assertThat(status()).as(err()).isZero();
      assertThat(answers()).hasSize(3);
      for (String a : answers()) {
        assertThat(a).as("stdout carries JSON-RPC only").startsWith("{\"jsonrpc\":\"2.0\"");
      }
      assertThat(answers().get(0)).contains("\"id\":1", "\"protocolVersion\":\"2025-06-18\"");
      for (String name : EXAMPLES) {
        assertThat(answers().get(1)).contains("\"name\":\"" + name + "\"");
      }
      assertThat(answers().get(2)).contains("\"id\":3", "x = 1");
      assertThat(rest()).as("stdout after the answers").isEmpty();
      assertThat(err()).contains("serving 7 prompt(s) over stdio");
    }
  }
}
