package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The platform-independent archives {@code bin/release} builds beside the linux one
 * ({@code promptd-VERSION.tar.gz} and {@code .zip}): unpacked in a new folder, run on this build's
 * Java found through PATH alone, refused on Java 17; the Windows launchers (which cannot run here)
 * are checked against the sh ones.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PortableArchiveTest {
  /**
   * What every launcher passes to the JVM: ./promptd's OPTS (checked below), its launcher path, the
   * user's options.
   */
  private static final List<String> JVM_OPTIONS = List.of(
      "-XX:-UsePerfData",
      "-Xms32m",
      "-XX:MinHeapFreeRatio=10",
      "-XX:MaxHeapFreeRatio=40",
      "-Xlog:disable",
      "-Xlog:all=warning:stderr",
      "-Djava.locale.providers=HOST");

  private static final Pattern OPTS = Pattern.compile("\nOPTS=\"([^\"]*)\"");

  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

  private static Path tarball;
  private static Path zip;

  // The first class to ask builds the distribution (up to Distribution's own 12 minutes): longer
  // than the default 120 s for a lifecycle method on a loaded machine.
  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void build() throws Exception {
    // bin/release writes them beside the linux archive: the one build DistributionTest uses too.
    Path out = Distribution.built().archive().getParent();
    try (Stream<Path> files = Files.list(out)) {
      List<Path> portable = files
          .filter(
              f -> f.getFileName().toString().matches("promptd-[^-]+(-SNAPSHOT)?\\.(tar\\.gz|zip)"))
          .sorted()
          .toList();
      assertThat(portable).as("promptd-VERSION.tar.gz and .zip in " + out).hasSize(2);
      tarball = portable.get(0);
      zip = portable.get(1);
      for (Path archive : portable) { // the doc says one size for both
        DocCommands.assertStatedSize(
            Peers.ROOT.resolve("docs/install.md"),
            "and `promptd-VERSION.zip`",
            Files.size(archive));
      }
    }
  }

  @Test
  void itRunsOnTheJavaOnPath(@TempDir Path dir) throws Exception {
    Path home = unpack(dir);
    for (String doc : List.of(
        "LICENSE", "NOTICE", "README.md", "docs/deploy.md", "bin/promptd.cmd", "lib/classpath")) {
      assertThat(home.resolve(doc)).as("the archive carries " + doc).isRegularFile();
    }
    assertThat(home.resolve("runtime")).doesNotExist();
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      assertThat(lib.map(f -> f.getFileName().toString()))
          .noneMatch(f -> f.endsWith(".aot") || f.endsWith(".jsa"));
    }
    // No JAVA_HOME: the launcher finds this build's Java (25) through a link on PATH.
    Map<String, String> env = toolsWithJava(dir, JAVA_HOME.resolve("bin/java"));
    String promptd = home.resolve("bin/promptd").toString();

    Result check = run(List.of(promptd, "check", "examples/prompts"), env, home);
    assertThat(check.status()).as(check.err()).isZero();
    assertThat(check.out() + check.err()).contains("0 error(s)");
    Result get = run(
        List.of(
            promptd,
            "get",
            "explain",
            "code=x = 1",
            "--stdio",
            promptd + " serve examples/prompts"),
        env,
        home);
    assertThat(get.status()).as(get.err()).isZero();
    assertThat(get.out()).contains("x = 1");

    int port = Peers.freePort();
    ProcessBuilder serve = new ProcessBuilder(
            promptd, "serve", "--http", String.valueOf(port), "examples/prompts")
        .directory(home.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("serve.err").toFile());
    serve.environment().clear();
    serve.environment().putAll(env);
    Process server = serve.start();
    try {
      Poll.port(server, port, Duration.ofSeconds(30));
      Path exe = Files.readSymbolicLink(Path.of("/proc", String.valueOf(server.pid()), "exe"));
      assertThat(exe.toRealPath()).isEqualTo(JAVA_HOME.resolve("bin/java").toRealPath());
      Result list =
          run(List.of(promptd, "list", "--url", "http://127.0.0.1:" + port + "/mcp"), env, home);
      assertThat(list.status()).as(list.err()).isZero();
      assertThat(list.out()).contains("explain").contains("brand-colors");
    } finally {
      server.destroy();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    assertThat(Files.readString(dir.resolve("serve.err")))
        .contains("serving")
        .doesNotContain("Exception");
  }

  @Test
  void itRefusesJava17WithAClearMessage(@TempDir Path dir) throws Exception {
    Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");
    Assumptions.assumeTrue(
        Files.isExecutable(java17.resolve("bin/java")), "no Java 17 at " + java17);
    Path home = unpack(dir);
    String promptd = home.resolve("bin/promptd").toString();
    Map<String, String> onPath = toolsWithJava(dir, java17.resolve("bin/java"));
    Result viaPath = run(List.of(promptd, "check", "examples/prompts"), onPath, home);
    assertThat(viaPath.status()).isEqualTo(3);
    assertThat(viaPath.out()).isEmpty();
    assertThat(viaPath.err())
        .startsWith("promptd: needs Java 21 or newer; found: Java 17.")
        .contains(" at " + java17.toRealPath());

    Map<String, String> viaHome = toolsWithJava(dir, null);
    viaHome.put("JAVA_HOME", java17.toString());
    Result refused = run(List.of(promptd, "--version"), viaHome, home);
    assertThat(refused.status()).isEqualTo(3);
    assertThat(refused.err()).contains("found: Java 17.").contains(" at " + java17 + ".\n");
  }

  /**
   * The Windows launchers cannot run here: what can be checked is that they pass every JVM option
   * the sh launchers pass, keep CRLF line endings, and that the zip's lib holds exactly the jars
   * lib/classpath lists (bin/promptd.cmd puts lib\* on the class path).
   */
  @Test
  void theWindowsLaunchersAgreeWithTheShOnes() throws Exception {
    Matcher opts = OPTS.matcher(Files.readString(Peers.ROOT.resolve("promptd")));
    assertThat(opts.find()).as("./promptd's OPTS").isTrue();
    assertThat(opts.group(1).replace("\\\n", " ").split("\\s+"))
        .containsExactlyElementsOf(JVM_OPTIONS);
    assertLauncher(Files.readString(Peers.ROOT.resolve("promptd")), false);
    assertLauncher(Files.readString(Peers.ROOT.resolve("promptd.cmd")), true);
    try (ZipFile z = new ZipFile(zip.toFile())) {
      String top = zip.getFileName().toString().replace(".zip", "") + "/";
      assertLauncher(read(z, top + "bin/promptd"), false);
      String cmd = read(z, top + "bin/promptd.cmd");
      assertLauncher(cmd, true);
      assertThat(cmd).contains("-cp \"%PROMPTD_HOME%\\lib\\*\" io.promptd.cli.Main %*");
      Set<String> jars = new TreeSet<>();
      z.stream()
          .map(e -> e.getName())
          .filter(n -> n.startsWith(top + "lib/") && n.endsWith(".jar"))
          .forEach(n -> jars.add(n.substring((top + "lib/").length())));
      assertThat(new TreeSet<>(read(z, top + "lib/classpath").lines().toList())).isEqualTo(jars);
      assertThat(jars).contains("promptd.jar");
    }
    assertThat(Files.readString(Peers.ROOT.resolve("promptd.cmd")))
        .contains("-cp \"%PROMPTD_APP%\\promptd.jar;%PROMPTD_APP%\\lib\\*\" io.promptd.cli.Main %*")
        .contains("call mvnw.cmd -q -B -DskipTests -pl promptd-cli -am package");
  }

  private static void assertLauncher(String script, boolean windows) {
    if (windows) {
      assertThat(script.replace("\r\n", ""))
          .as("CRLF line endings only")
          .doesNotContain("\n")
          .doesNotContain("\r");
      assertThat(script)
          .contains(
              "%PROMPTD_JAVA_OPTS%", "\"-Dpromptd.launcher=", "if %PROMPTD_JM% GEQ 21 exit /b 0");
    } else {
      assertThat(script)
          .contains("${PROMPTD_JAVA_OPTS:-}", "-Dpromptd.launcher=")
          .doesNotContain("\r");
    }
    for (String option : JVM_OPTIONS) {
      assertThat(script).as("passes " + option).contains(option);
    }
    // The collector: Serial, and G1 when the arguments hold --http.
    assertThat(script).contains("-XX:+UseSerialGC", "-XX:+UseG1GC", "--http");
  }

  private static String read(ZipFile z, String entry) throws IOException {
    return new String(z.getInputStream(z.getEntry(entry)).readAllBytes(), UTF_8);
  }

  private static Path unpack(Path dir) throws Exception {
    Path user = Files.createDirectories(dir.resolve("user"));
    Result untar = run(
        List.of("tar", "-xzf", tarball.toString(), "-C", user.toString()),
        Map.of("PATH", "/usr/bin:/bin"),
        user);
    assertThat(untar.status()).as(untar.err()).isZero();
    try (Stream<Path> entries = Files.list(user)) {
      return entries.findFirst().orElseThrow();
    }
  }

  /** A PATH with only what the launcher calls (sh, readlink) and, when given, a link named java. */
  private static Map<String, String> toolsWithJava(
      Path dir, @org.jspecify.annotations.Nullable Path java) throws IOException {
    Path tools = Files.createDirectories(dir.resolve(java == null ? "tools" : "tools-java"));
    for (String tool : List.of("sh", "readlink")) {
      if (Files.notExists(tools.resolve(tool), LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(tools.resolve(tool), Path.of("/bin", tool).toRealPath());
      }
    }
    if (java != null && Files.notExists(tools.resolve("java"), LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(tools.resolve("java"), java);
    }
    return new HashMap<>(Map.of("PATH", tools.toString(), "HOME", dir.toString()));
  }

  private static Result run(List<String> command, Map<String, String> env, Path in)
      throws Exception {
    return Processes.run(command, env, in, Duration.ofMinutes(1));
  }
}
