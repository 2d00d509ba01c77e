package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official TypeScript SDK clients (v1, legacy; v2 pinned to 2026-07-28) and inspector-cli
 * against a real promptd server, over stdio and HTTP. Each cell lists across pages, gets a prompt
 * with arguments, provokes a -32602 and, where the client can observe one, sees a list_changed
 * after a library edit.
 */
class ServerCellsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK {0} client over {1}")
  @org.junit.jupiter.params.provider.CsvSource({"v1, stdio", "v1, http", "v2, stdio", "v2, http"})
  void typeScriptClient(String sdk, String transport) throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
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
        library.resolve("added_by_interop.prompt.md").toString(),
        "--min-pages",
        "2"));
    Process server = PromptdServer.target(transport, library, args);
    try {
      String report = runNode(args);
      assertThat(report).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
      Matrix.record(
          "TS SDK " + sdk + " client → promptd",
          transport,
          sdk.equals("v1") ? "legacy" : "modern 2026-07-28",
          "list across pages, get+args, -32602, list_changed after a file edit");
    } finally {
      if (server != null) {
        server.destroy();
      }
    }
  }

  @ParameterizedTest(name = "inspector-cli over {0}")
  @ValueSource(strings = {"stdio", "http"})
  void inspectorCli(String transport) throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    Path build = Peers.NODE_MODULES.resolve("@modelcontextprotocol/inspector-cli/build");
    List<String> target = new ArrayList<>();
    Process server = null;
    if (transport.equals("stdio")) {
      Path launcher = dir.resolve("launch.sh");
      Files.writeString(
          launcher,
          "#!/usr/bin/env bash\nexec " + PromptdServer.shell(PromptdServer.stdioCommand(library))
              + " 2>>" + dir.resolve("server.log") + "\n",
          UTF_8);
      target.addAll(List.of("bash", launcher.toString()));
    } else {
      int port = Peers.freePort();
      server = Peers.startHttp(PromptdServer.httpCommand(library, port), port);
      target.addAll(List.of(Peers.mcpUrl(port).toString(), "--transport", "http"));
    }
    try {
      List<String> list =
          new ArrayList<>(List.of("node", build.resolve("index.js").toString()));
      list.addAll(target);
      list.addAll(List.of("--method", "prompts/list"));
      assertThat(run(list, build)).contains("\"prompts\"").contains("\"name\"");
      List<String> get =
          new ArrayList<>(List.of("node", build.resolve("index.js").toString()));
      get.addAll(target);
      get.addAll(List.of(
          "--method",
          "prompts/get",
          "--prompt-name",
          "test_prompt_with_arguments",
          "--prompt-args",
          "arg1=hello",
          "arg2=world"));
      assertThat(run(get, build)).contains("hello").contains("world");
      Matrix.record(
          "inspector-cli → promptd",
          transport,
          "legacy",
          "prompts/list, prompts/get with arguments");
    } finally {
      if (server != null) {
        server.destroy();
      }
    }
  }

  static String runNode(List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(args);
    return run(command, Peers.INTEROP);
  }

  /**
   * Runs a command to its end (at most 120 s) and returns its standard output; a non-zero exit
   * fails the test.
   */
  static String run(List<String> command, Path cwd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command)
        .directory(cwd.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished: " + command).isTrue();
    assertThat(p.exitValue())
        .as("exit status of " + command + "; output: " + out)
        .isZero();
    return out;
  }
}
