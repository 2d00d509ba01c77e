package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's launcher ({@code ./promptd}) and {@code bin/jdk.sh} as macOS and the BSDs run
 * them: under dash (a strict POSIX sh) with a PATH whose {@code find}, {@code stat}, {@code sed},
 * {@code readlink}, {@code ls}, {@code date}, {@code grep} and {@code cp} reject GNU-only options
 * as the BSD tools do ({@code src/test/bsd-tools}). The launcher runs on a copy of the checkout
 * holding the jars this build made and no sources, so it never builds here.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LauncherPortabilityTest {
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

  @TempDir
  static Path dir;

  private static Path tools;
  private static String dash;

  @BeforeAll
  static void tools() throws IOException {
    dash = Stream.of("/usr/bin/dash", "/bin/dash")
        .filter(p -> Files.isExecutable(Path.of(p)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("dash is needed (Debian: apt-get install dash)"));
    tools = Files.createDirectories(dir.resolve("bsd-tools"));
    try (Stream<Path> files = Files.list(Peers.ROOT.resolve("interop-tests/src/test/bsd-tools"))) {
      for (Path f : files.toList()) {
        Path copy = Files.copy(f, tools.resolve(f.getFileName()));
        copy.toFile().setExecutable(true);
      }
    }
  }

  /**
   * The stand-ins are on PATH and refuse what BSD tools refuse: else the tests below would prove
   * nothing.
   */
  @Test
  void theStandInsRejectGnuOnlyOptions() throws Exception {
    Map<String, String> env = bsdEnv(Map.of());
    assertThat(sh("find . -maxdepth 0 -printf '%p'", env, dir).err())
        .contains("find: -printf: unknown primary or operator");
    assertThat(sh("readlink -f /bin/sh", env, dir).err()).contains("readlink: illegal option -- f");
    assertThat(sh("echo a | sed -r s/a/b/", env, dir).err()).contains("sed: illegal option -- r");
    assertThat(sh("stat -c %s /bin/sh", env, dir).err()).contains("stat: illegal option -- c");
    Result fine =
        sh("find . -maxdepth 0 -print; echo ab | sed -E 's/(b)/\\1c/'; stat -f %z .", env, dir);
    assertThat(fine.status()).as(fine.err()).isZero();
    assertThat(fine.out()).startsWith(".\nabc\n");
  }

  @Test
  void theCheckoutLauncherRunsWithBsdTools() throws Exception {
    Path checkout = checkoutCopy(dir.resolve("checkout"));
    Path launcher = checkout.resolve("promptd");
    Map<String, String> env = bsdEnv(Map.of("JAVA_HOME", JAVA_HOME.toString()));

    Result version = run(List.of(dash, launcher.toString(), "--version"), env, checkout);
    assertThat(version.status()).as(version.err()).isZero();
    // --version answers on stderr (stdout is the stdio transport); nothing else may be there.
    assertThat(version.out() + version.err()).matches("promptd \\S+\n");
    // The first start trained the stdio cache; the next one uses it as it is.
    Path cache = onlyCache(checkout.resolve("promptd-cli/target"));
    FileTime trained = Files.getLastModifiedTime(cache);
    Result check =
        run(List.of(dash, launcher.toString(), "check", "examples/prompts"), env, checkout);
    assertThat(check.status()).as(check.err()).isZero();
    assertThat(check.out() + check.err()).contains("0 error(s)").doesNotContain("illegal option");
    assertThat(Files.getLastModifiedTime(cache)).isEqualTo(trained);

    // A rebuilt jar (same size, a newer time) makes the launcher train the cache again.
    Path jar = checkout.resolve("promptd-cli/target/promptd.jar");
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
    Result list = run(
        List.of(dash, launcher.toString(), "list", "--stdio", launcher + " serve examples/prompts"),
        env,
        checkout);
    assertThat(list.status()).as(list.err()).isZero();
    assertThat(list.out()).contains("explain").contains("brand-colors");
    assertThat(Files.getLastModifiedTime(cache)).isNotEqualTo(trained);
  }

  /**
   * {@code ./mvnw} builds with the JDK the launcher finds, not with the first {@code java} on PATH
   * (Java 17 on this machine kind, which the build refuses) or a {@code JAVA_HOME} that is no JDK.
   */
  @Test
  void theMavenWrapperBuildsWithTheJdkTheLauncherFinds() throws Exception {
    Path notAJdk = Files.createDirectories(dir.resolve("not-a-jdk"));
    String home = System.getProperty("user.home"); // Maven's own files, fetched by the wrapper
    for (Map<String, String> env : List.of(
        Map.of("PATH", "/usr/bin:/bin", "HOME", home),
        Map.of("PATH", "/usr/bin:/bin", "HOME", home, "JAVA_HOME", notAJdk.toString()))) {
      Result version = run(
          List.of(dash, Peers.ROOT.resolve("mvnw").toString(), "-o", "--version"), env, Peers.ROOT);
      assertThat(version.status())
          .as(env + ": " + version.err() + version.out())
          .isZero();
      Matcher java = Pattern.compile("Java version: (\\d+)").matcher(version.out());
      assertThat(java.find()).as(version.out()).isTrue();
      assertThat(Integer.parseInt(java.group(1))).as(env.toString()).isGreaterThanOrEqualTo(21);
    }
  }

  /**
   * A client or a service manager may start promptd with no locale (or C): the JVM would then read
   * a file name in any script but ASCII as question marks ({@code ??????.prompt.md} has "no name").
   * The launcher makes file names UTF-8 and keeps the language a non-UTF-8 LC_ALL named.
   */
  @Test
  void fileNamesAreReadAsUtf8WhateverTheLocale() throws Exception {
    String jdkSh = Peers.ROOT.resolve("bin/jdk.sh").toString();
    String script = ". '" + jdkSh + "'; promptd_utf8_names;"
        + " echo \"LC_ALL=${LC_ALL-unset} LC_CTYPE=${LC_CTYPE-unset} LANG=${LANG-unset}\"";
    Map<String, String> none = bsdEnv(Map.of());
    none.remove("LANG");
    assertThat(sh(script, none, dir).out()).isEqualTo("LC_ALL=unset LC_CTYPE=C.UTF-8 LANG=unset\n");
    assertThat(sh(script, bsdEnv(Map.of("LC_ALL", "C")), dir).out())
        .isEqualTo("LC_ALL=unset LC_CTYPE=C.UTF-8 LANG=C\n");
    assertThat(sh(script, bsdEnv(Map.of("LANG", "ja_JP.utf8")), dir).out())
        .as("a UTF-8 locale is left as it is")
        .isEqualTo("LC_ALL=unset LC_CTYPE=unset LANG=ja_JP.utf8\n");

    Path library = Files.createDirectories(dir.resolve("名前"));
    Files.writeString(library.resolve("翻訳.prompt.md"), "---\ndescription: d\n---\n訳して\n");
    Map<String, String> env = bsdEnv(Map.of("JAVA_HOME", JAVA_HOME.toString()));
    env.remove("LANG");
    Result check = run(
        List.of(dash, Peers.ROOT.resolve("promptd").toString(), "check", library.toString()),
        env,
        dir);
    assertThat(check.status()).as(check.out() + check.err()).isZero();
    assertThat(check.out()).isEqualTo("0 error(s), 0 warning(s)\n");
  }

  /**
   * bin/jdk.sh's choices, sourced by dash: the java on PATH through a chain of relative and
   * absolute links (followed without {@code readlink -f}), a JRE accepted only where no build is
   * needed, an old Java refused with what was found.
   */
  @Test
  void jdkShFindsJavaThroughLinksAndRefusesOldOnes() throws Exception {
    Path links = Files.createDirectories(dir.resolve("links"));
    Path chain = Files.createDirectories(dir.resolve("chain"));
    Files.createSymbolicLink(chain.resolve("java"), JAVA_HOME.resolve("bin/java"));
    Files.createSymbolicLink(links.resolve("java"), Path.of("../chain/java"));
    Path old = fakeJava(dir.resolve("java-17"), "17.0.2", true);
    Path jre = fakeJava(dir.resolve("jre-21"), "21.0.4", false);
    String jdkSh = Peers.ROOT.resolve("bin/jdk.sh").toString();
    String script =
        ". '" + jdkSh + "'; promptd_find_jdk && echo \"jdk $PROMPTD_JDK_MAJOR $PROMPTD_JDK\";"
            + " promptd_require_java && echo \"java $PROMPTD_JDK_MAJOR $PROMPTD_JDK\"";

    Map<String, String> env = bsdEnv(Map.of("JAVA_HOME", old.toString()));
    env.put("PATH", links + ":" + env.get("PATH"));
    Result found = run(List.of(dash, "-c", script), env, dir);
    assertThat(found.status()).as(found.err()).isZero();
    String[] jdk = found.out().lines().findFirst().orElseThrow().split(" ", 3);
    assertThat(jdk[0]).isEqualTo("jdk");
    assertThat(Integer.parseInt(jdk[1])).isGreaterThanOrEqualTo(21);
    assertThat(Path.of(jdk[2]).toRealPath()).isEqualTo(JAVA_HOME.toRealPath());
    assertThat(found.out().lines().skip(1).findFirst().orElseThrow())
        .startsWith("java " + jdk[1] + " ");

    Map<String, String> jreOnly = bsdEnv(Map.of("PROMPTD_JAVA_HOME", jre.toString()));
    Result jreFound = run(List.of(dash, "-c", script), jreOnly, dir);
    assertThat(jreFound.out()).contains("java 21 " + jre);

    Map<String, String> tooOld = bsdEnv(Map.of("JAVA_HOME", old.toString()));
    tooOld.put("PATH", tools.toString()); // no java on it
    Result refused =
        run(List.of(dash, "-c", ". '" + jdkSh + "'; promptd_require_java"), tooOld, dir);
    assertThat(refused.status()).isEqualTo(3);
    assertThat(refused.err())
        .contains("promptd: needs Java 21 or newer; found: Java 17.0.2 at " + old + ".\n")
        .contains("point PROMPTD_JAVA_HOME or JAVA_HOME at it");
  }

  /**
   * Maven's own start under JDK 24+ (JEP 498): Maven 3.9.11's Guice called sun.misc.Unsafe and
   * every build, the launcher's first one included, began with four warnings. Whether the build
   * itself succeeds here does not matter (an empty local repository, offline): the warnings come
   * first.
   */
  @Test
  void mavenStartsWithoutUnsafeWarnings() throws Exception {
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 24, "JDK 24+ warns about sun.misc.Unsafe");
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("JAVA_HOME", JAVA_HOME.toString());
    env.remove("MAVEN_OPTS");
    Result maven = run(
        List.of(
            Peers.ROOT.resolve("mvnw").toString(),
            "-N",
            "-o",
            "-B",
            "-q",
            "-Dmaven.repo.local=" + dir.resolve("empty-repo"),
            "validate"),
        env,
        Peers.ROOT);
    assertThat(maven.out() + maven.err()).doesNotContain("sun.misc.Unsafe");
  }

  /**
   * Every script a user or CI runs (the launchers, bin/*, .ci/run) and the stand-ins are POSIX sh:
   * {@code #!/bin/sh}, parsed by dash, and clean under {@code shellcheck -s sh} (bin/test installs
   * shellcheck; elsewhere that part is skipped when it is missing).
   */
  @Test
  void everyScriptIsPosixSh() throws Exception {
    List<Path> scripts = new ArrayList<>();
    for (String s : List.of("promptd", ".ci/run", "promptd-cli/src/dist/bin/promptd")) {
      scripts.add(Peers.ROOT.resolve(s));
    }
    for (String folder : List.of("bin", "interop-tests/src/test/bsd-tools")) {
      try (Stream<Path> files = Files.list(Peers.ROOT.resolve(folder))) {
        files
            .filter(f -> !f.toString().endsWith(".java") && !f.toString().endsWith(".md"))
            .sorted()
            .forEach(scripts::add);
      }
    }
    assertThat(scripts)
        .contains(Peers.ROOT.resolve("bin/cluster"), Peers.ROOT.resolve("bin/jdk.sh"));
    for (Path script : scripts) {
      String name = script.getFileName().toString();
      if (!name.equals("jdk.sh") && !name.equals("real.sh")) { // sourced, not run
        assertThat(Files.readString(script)).as(script.toString()).startsWith("#!/bin/sh\n");
      }
      Result parsed = run(List.of(dash, "-n", script.toString()), bsdEnv(Map.of()), Peers.ROOT);
      assertThat(parsed.status()).as(script + ": " + parsed.err()).isZero();
    }
    Path shellcheck = Path.of("/usr/bin/shellcheck");
    if (!Files.isExecutable(shellcheck) && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("shellcheck is missing in CI (bin/test installs it)");
    }
    Assumptions.assumeTrue(
        Files.isExecutable(shellcheck), "shellcheck not installed: only dash -n ran");
    List<String> command = new ArrayList<>(List.of(shellcheck.toString(), "-s", "sh", "-x"));
    scripts.forEach(s -> command.add(Peers.ROOT.relativize(s).toString()));
    Result checked = run(command, bsdEnv(Map.of()), Peers.ROOT);
    assertThat(checked.status()).as(checked.out() + checked.err()).isZero();
  }

  /**
   * A checkout as a user has it after a build: the launcher, bin/jdk.sh, the jars, the training
   * inputs.
   */
  static Path checkoutCopy(Path to) throws IOException {
    for (String part : List.of(
        "promptd",
        "bin/jdk.sh",
        "fixtures/conformance",
        "promptd-cli/src/aot",
        "examples/prompts")) {
      copyTree(Peers.ROOT.resolve(part), to.resolve(part));
    }
    Path target = Peers.ROOT.resolve("promptd-cli/target");
    assertThat(target.resolve("promptd.jar"))
        .as("promptd-cli is packaged before this module")
        .isRegularFile();
    copyTree(target.resolve("promptd.jar"), to.resolve("promptd-cli/target/promptd.jar"));
    copyTree(target.resolve("lib"), to.resolve("promptd-cli/target/lib"));
    return to;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path f : all.toList()) {
        Path copy = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(copy);
        } else {
          Files.createDirectories(copy.getParent());
          Files.copy(f, copy);
        }
      }
    }
  }

  private static Path onlyCache(Path target) throws IOException {
    try (Stream<Path> files = Files.list(target)) {
      List<Path> caches = files
          .filter(f -> f.getFileName().toString().matches("promptd-stdio\\.(aot|jsa)"))
          .toList();
      assertThat(caches).as("the stdio start-up cache").hasSize(1);
      return caches.getFirst();
    }
  }

  /** A Java installation as jdk.sh sees one: bin/java, maybe bin/javac, and a release file. */
  private static Path fakeJava(Path home, String version, boolean jdk) throws IOException {
    Files.createDirectories(home.resolve("bin"));
    for (String tool : jdk ? List.of("java", "javac") : List.of("java")) {
      Files.writeString(home.resolve("bin/" + tool), "#!/bin/sh\nexit 1\n")
          .toFile()
          .setExecutable(true);
    }
    Files.writeString(
        home.resolve("release"),
        "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\nOS_NAME=\"Linux\"");
    return home;
  }

  /**
   * An environment of only the BSD stand-ins and the system's tools, plus {@code extra}; no
   * JAVA_HOME unless given.
   */
  static Map<String, String> bsdEnv(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", tools + ":/usr/bin:/bin");
    env.put("HOME", dir.toString());
    env.put("LANG", "C.UTF-8");
    env.putAll(extra);
    return env;
  }

  private static Result sh(String script, Map<String, String> env, Path in) throws Exception {
    return run(List.of(dash, "-c", script), env, in);
  }

  static Result run(List<String> command, Map<String, String> env, Path in) throws Exception {
    return Processes.run(command, env, in, Duration.ofMinutes(1));
  }
}
