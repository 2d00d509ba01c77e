package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.promptd.interop.springboot.DualEraApplication;
import io.promptd.javasdk.endpoint.DualEraServlet;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One URL for both eras on the official Java SDK: a watched promptd library served by
 * {@link DualEraServlet#serving} (the SDK's legacy streamable HTTP servlet and its 2026-07-28
 * servlet, each with its SDK server) in a real Tomcat on port 0, and the official clients of every
 * era against that one URL: the TypeScript SDK v1 (an {@code initialize} session) and v2 pinned to
 * 2026-07-28 (with a form answered), the Python SDK in {@code auto} mode and in legacy mode, each
 * listing, rendering with arguments, getting -32602 and hearing {@code list_changed} as its era
 * tells it after a file is added; and the official conformance suite's prompt, completion, logging,
 * stream and DNS-rebinding scenarios. Each twice: the servlet in Tomcat, and a Spring Boot
 * application served by the endpoint's auto-configuration. Skipped under {@code -Psdk-2.1} (no
 * modern stack).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DualEraEndpointTest {
  /**
   * bin/conformance's default scenarios but the resources ones, which a prompts-only server has
   * none for.
   */
  static final List<String> SCENARIOS = List.of(
      "server-initialize",
      "ping",
      "prompts-list",
      "prompts-get-simple",
      "prompts-get-with-args",
      "prompts-get-embedded-resource",
      "prompts-get-with-image",
      "completion-complete",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
      "logging-set-level");

  @TempDir
  Path dir;

  private Library library;
  private Tomcat tomcat;
  private ConfigurableApplicationContext application;

  @BeforeAll
  static void requirements() {
    Peers.requireNode();
    assumeTrue(
        JavaSnippetsTest.sdkHasModernStack(),
        "the official Java SDK on the class path has no modern stack (it came in 2.2.0)");
  }

  /**
   * Serves {@code folder} in both eras at {@code /mcp}: with the servlet in Tomcat
   * ({@code servlet}), or as a Spring Boot application with promptd.prompts.dirs set
   * ({@code spring-boot}); returns its URL.
   */
  private String serve(String server, Path folder) throws Exception {
    if (server.equals("spring-boot")) {
      application = SpringApplication.run(
          DualEraApplication.class,
          "--server.port=0",
          "--server.address=127.0.0.1",
          "--spring.main.banner-mode=off",
          // Spring Boot's graceful shutdown would wait 30 s for the clients' event streams.
          "--server.shutdown=immediate",
          "--promptd.prompts.dirs=" + folder);
      return "http://127.0.0.1:" + application.getEnvironment().getProperty("local.server.port")
          + "/mcp";
    }
    library = Library.open(
        LibrarySource.folders(List.of(folder)),
        LibraryOptions.defaults().withCacheDirectory(null).withDebounce(Duration.ofMillis(25)));
    library.watch();
    tomcat = new Tomcat();
    Path base = Files.createDirectories(dir.resolve("tomcat"));
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", base.toString());
    Wrapper servlet = Tomcat.addServlet(context, "mcp", DualEraServlet.serving(library.catalog()));
    servlet.setAsyncSupported(true);
    servlet.addMapping("/mcp");
    tomcat.getConnector();
    tomcat.start();
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
  }

  @AfterEach
  void stop() throws Exception {
    if (application != null) {
      application.close();
    }
    if (tomcat != null) {
      tomcat.stop();
      tomcat.destroy();
    }
    if (library != null) {
      library.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet", "spring-boot"})
  void theTypeScriptV1AndV2ClientsShareOneUrl(String server) throws Exception {
    Path folder = PromptdServer.fixtureCopy(dir.resolve("lib"));
    String url = serve(server, folder);
    for (String sdk : List.of("v1", "v2")) {
      List<String> args = new ArrayList<>(List.of(
          "ts-client.mjs",
          "--sdk",
          sdk,
          "--url",
          url,
          "--get",
          "test_prompt_with_arguments",
          "--arg",
          "arg1=testValue1",
          "--arg",
          "arg2=testValue2",
          "--expect",
          "testValue1",
          "--edit-file",
          folder.resolve("added_by_" + sdk + ".prompt.md").toString()));
      if (sdk.equals("v2")) {
        args.addAll(List.of("--elicit", "test_prompt_with_arguments=answered-in-a-form"));
      }
      String report = ServerCellsTest.runNode(args);
      assertThat(report)
          .contains("\"ok\":true")
          .contains("\"era\":\"" + (sdk.equals("v1") ? "legacy" : "modern") + "\"")
          .contains("\"invalidParams\":-32602")
          .contains("\"listChanged\":\"ok\"");
      if (sdk.equals("v2")) {
        assertThat(report).contains("\"elicit\":\"ok\"", "\"forms\":1");
      }
    }
    Matrix.record(
        "TS SDK v1 and v2 clients → Java SDK 2.2.0, both stacks at one URL (promptd-java-sdk-endpoint, "
            + server + ")",
        "http",
        "legacy 2025-11-25 + modern 2026-07-28",
        "list, get+args, -32602, list_changed; v2: a form answered (input_required)");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet", "spring-boot"})
  void thePythonClientInAutoModeFindsTheModernEraAndInLegacyModeASession(String server)
      throws Exception {
    assumeTrue(
        Files.isExecutable(PythonSdkClientTest.VENV_PYTHON),
        "the Python SDK peer installed in interop/python/.venv (bin/test does it)");
    Path folder = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    String url = serve(server, folder);
    for (String era : List.of("modern", "legacy")) {
      String report = ServerCellsTest.run(
          List.of(
              PythonSdkClientTest.VENV_PYTHON.toString(),
              Peers.INTEROP.resolve("python/py_client.py").toString(),
              "--era",
              era, // modern: the client's auto mode, which tries 2026-07-28 first
              "--url",
              url,
              "--prompts-only",
              "--get",
              "explain",
              "--arg",
              "code=x = 1",
              "--expect",
              "x = 1",
              "--missing",
              "translate",
              "--complete",
              "translate:language:Fr",
              "--edit-file",
              folder.resolve("added_by_python_" + era + ".prompt.md").toString()),
          Peers.INTEROP);
      assertThat(report)
          .contains("\"ok\": true")
          .contains(
              "\"protocolVersion\": \"" + (era.equals("modern") ? "2026-07-28" : "2025-11-25"))
          .contains("\"serverInfo\": \"promptd\"")
          .contains("\"missingArgument\": \"-32602\"")
          .contains("\"completion\": [\"French\"]")
          .contains("\"listChanged\": \"ok\"");
    }
    Matrix.record(
        "Python SDK client (auto, legacy) → Java SDK 2.2.0, both stacks at one URL (" + server
            + ")",
        "http",
        "modern 2026-07-28 (auto) + legacy 2025-11-25",
        "list, get+args, -32602, completion, list_changed");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet", "spring-boot"})
  void theConformanceSuitesPromptScenariosPassAtTheUrl(String server) throws Exception {
    String url = serve(
        server, PromptdServer.copy(Peers.ROOT.resolve("fixtures/conformance"), dir.resolve("lib")));
    List<String> command = new ArrayList<>(List.of("sh", "bin/conformance"));
    command.addAll(SCENARIOS);
    ProcessBuilder suite = new ProcessBuilder(command)
        .directory(Peers.ROOT.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    suite.environment().put("CONFORMANCE_URL", url);
    Process p = suite.start();
    p.getOutputStream().close();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("bin/conformance finished").isTrue();
    assertThat(out).contains(SCENARIOS.size() + " passed, 0 failed");
    assertThat(p.exitValue()).as(out).isZero();
    Matrix.record(
        "conformance suite → Java SDK 2.2.0, both stacks at one URL (" + server + ")",
        "http",
        "legacy 2025-11-25",
        String.join(", ", SCENARIOS));
  }
}
