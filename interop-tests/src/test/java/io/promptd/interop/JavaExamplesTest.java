package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java example projects under {@code examples/java}, built and run as docs/java.md's "Example
 * projects" says: its build line ({@code ./mvnw -q -f examples/java/NAME/pom.xml package}, against
 * the promptd artifacts that {@code ./mvnw install} put in the local repository; bin/test installs
 * them before this module runs) run as written, then its {@code java -jar} lines with a copy of a
 * library and a free port. The official TypeScript SDK's clients list, get with arguments, provoke
 * a -32602 and see a list_changed after a file is added, against each.
 */
class JavaExamplesTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void installed() {
    Peers.requireNode();
    requireArtifacts();
  }

  /**
   * Skips the calling test when promptd's artifacts are not in the local repository, except in CI,
   * where their absence is a failure.
   */
  static void requireArtifacts() {
    Path bom = Path.of(System.getProperty("user.home"), ".m2/repository/io/promptd/promptd-bom");
    boolean present = Files.isDirectory(bom);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "promptd's artifacts are not installed: bin/test runs ./mvnw install");
    }
    assumeThat(present).as("promptd's artifacts installed (./mvnw install)").isTrue();
  }

  @Test
  void thePlainExampleServesBothErasAtOneUrlAndStdio() throws Exception {
    bothErasAtOneUrlAndStdio("### Plain Java: promptd's own server", "plain");
  }

  @Test
  void theOfficialSdkExampleServesBothErasAtOneUrlAndStdio() throws Exception {
    bothErasAtOneUrlAndStdio("### The official Java SDK: both eras at one URL", "official-sdk");
  }

  /**
   * An example's three lines under {@code heading}: its build, then its jar over HTTP, where both
   * TypeScript SDKs (v1, legacy; v2, 2026-07-28) use one URL, then over stdio, where both do too.
   */
  private void bothErasAtOneUrlAndStdio(String heading, String example) throws Exception {
    List<List<String>> commands = commands(heading);
    assertThat(commands).hasSize(3);
    build(commands.get(0), example);
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    int port = Peers.freePort();
    List<String> http = served(commands.get(1), library);
    assertThat(commands.get(1).subList(0, 4))
        .containsExactly(
            "java",
            "-jar",
            "examples/java/" + example + "/target/promptd-" + example + "-example.jar",
            "--http");
    http.set(4, Integer.toString(port));
    Process server = Peers.startHttp(http, port);
    try {
      for (String sdk : List.of("v1", "v2")) {
        assertThat(
                client(sdk, library, "added-" + sdk, "--url", Peers.mcpUrl(port).toString()))
            .contains("\"ok\":true")
            .contains("\"listChanged\":\"ok\"");
      }
    } finally {
      server.destroy();
    }
    List<String> stdio = served(commands.get(2), library);
    assertThat(stdio).element(3).isEqualTo("--stdio");
    for (String sdk : List.of("v1", "v2")) {
      assertThat(client(sdk, library, "stdio-" + sdk, "--stdio", PromptdServer.shell(stdio)))
          .contains("\"ok\":true")
          .contains("\"listChanged\":\"ok\"");
    }
  }

  @Test
  void theSpringBootExampleServesAFolderOverStdio() throws Exception {
    List<List<String>> commands = commands("### Spring Boot with Spring AI");
    assertThat(commands).hasSize(2);
    build(commands.get(0), "spring-boot");
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    List<String> served = new ArrayList<>(commands.get(1));
    assertThat(served.getLast()).isEqualTo("--promptd.prompts.dirs=examples/prompts");
    served.set(served.size() - 1, "--promptd.prompts.dirs=" + library);
    jar(served);
    // Spring AI's server is built on the official SDK's legacy stack: initialize sessions only.
    assertThat(client("v1", library, "added", "--stdio", PromptdServer.shell(served)))
        .contains("\"ok\":true")
        .contains("\"listChanged\":\"ok\"");
  }

  /** The commands of the sh block under {@code heading} in docs/java.md. */
  static List<List<String>> commands(String heading) throws Exception {
    return DocCommands.commands(
        DocCommands.block(Peers.ROOT.resolve("docs/java.md"), heading, "sh"), Map.of());
  }

  /**
   * A {@code java -jar JAR … examples/prompts} line of the doc, with {@code library} for the
   * folder.
   */
  private static List<String> served(List<String> command, Path library) {
    List<String> served = new ArrayList<>(command);
    assertThat(served.getLast()).isEqualTo("examples/prompts");
    served.set(served.size() - 1, library.toString());
    jar(served);
    return served;
  }

  /** A {@code java -jar JAR …} line run with this JVM's java and the jar in the checkout. */
  static void jar(List<String> command) {
    assertThat(command.subList(0, 2)).containsExactly("java", "-jar");
    command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.set(2, Peers.ROOT.resolve(command.get(2)).toString());
  }

  private void build(List<String> command, String example) throws Exception {
    build(command, example, dir);
  }

  /**
   * Runs the doc's build line of one example in the checkout, as written; its output goes to a log
   * in {@code dir}.
   */
  static void build(List<String> command, String example, Path dir) throws Exception {
    assertThat(command)
        .containsExactly("./mvnw", "-q", "-f", "examples/java/" + example + "/pom.xml", "package");
    Path log = dir.resolve(example + "-build.log");
    List<String> run = new ArrayList<>(command);
    run.set(0, Peers.ROOT.resolve("mvnw").toString());
    ProcessBuilder pb = new ProcessBuilder(run)
        .directory(Peers.ROOT.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the " + example + " example's build did not finish in 10 minutes");
    }
    assertThat(p.exitValue())
        .as("%s exited with %d:%n%s", command, p.exitValue(), Files.readString(log, UTF_8))
        .isZero();
  }

  /**
   * The TypeScript SDK client {@code sdk} against a server; adds {@code added}.prompt.md to the
   * library to see a list_changed.
   */
  private static String client(String sdk, Path library, String added, String... target)
      throws Exception {
    List<String> args = new ArrayList<>(List.of(
        "ts-client.mjs",
        "--sdk",
        sdk,
        "--get",
        "test_prompt_with_arguments",
        "--arg",
        "arg1=testValue1",
        "--arg",
        "arg2=testValue2",
        "--expect",
        "testValue1",
        "--edit-file",
        library.resolve(added + ".prompt.md").toString()));
    args.addAll(List.of(target));
    return ServerCellsTest.runNode(args);
  }
}
