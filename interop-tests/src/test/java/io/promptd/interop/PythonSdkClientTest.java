package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The official MCP Python SDK client ({@code mcp} 2.3.0, pinned with its dependencies in
 * {@code interop/python/requirements.lock}, installed by {@code bin/test} into
 * {@code interop/python/.venv}) against promptd serving the example library with a skill beside the
 * prompts ({@code ops/incident-review}: its {@code SKILL.md}, a text reference and a PNG), in both
 * eras over stdio and Streamable HTTP: {@code interop/python/py_client.py} checks the negotiated
 * version, a listing across pages, a get with arguments, a -32602 for a missing required argument,
 * a completion, every resource read (the skill files as text or base64 blob by type, byte for byte
 * as on disk), the Skills extension (2026-07-28: declared, {@code skills/list} and
 * {@code skills/get} through the SDK's generic request, every manifest size and digest equal to
 * what {@code resources/read} gives; legacy: not declared, {@code skills/list} -32601), and a
 * list_changed after a file is added (legacy: the notification; 2026-07-28: an event on a
 * {@code subscriptions/listen} stream).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PythonSdkClientTest {
  static final Path VENV_PYTHON = Peers.INTEROP.resolve("python/.venv/bin/python");

  /**
   * A skill served beside the example prompts: {@code ops/incident-review} with a reference and a
   * PNG.
   */
  static final Path SKILLS = Peers.ROOT.resolve("interop-tests/src/test/resources/skills");

  @TempDir
  Path dir;

  @BeforeAll
  static void python() {
    boolean installed = Files.isExecutable(VENV_PYTHON);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "interop/python/.venv is missing in CI: bin/test creates it (python3 -m venv, pip install -r"
              + " interop/python/requirements.lock)");
    }
    assumeThat(installed)
        .as("the Python SDK peer installed in interop/python/.venv (bin/test does it)")
        .isTrue();
  }

  @ParameterizedTest(name = "Python SDK client, {0} era, over {1}{2}")
  @CsvSource({
    "legacy, stdio, ''",
    "modern, stdio, ''",
    "legacy, http, ''",
    "modern, http, ''",
    "modern, http, ' with a token'"
  })
  void pythonClient(String era, String transport, String token) throws Exception {
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    PromptdServer.copy(SKILLS, library);
    List<String> args = new ArrayList<>(List.of(
        VENV_PYTHON.toString(),
        Peers.INTEROP.resolve("python/py_client.py").toString(),
        "--era",
        era,
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
        library.resolve("added_by_python.prompt.md").toString(),
        "--min-pages",
        "2",
        "--library",
        library.toString(),
        "--skill-prompt",
        "ops-incident-review"));
    String[] flags = token.isBlank() ? new String[0] : new String[] {"--token", "s3cret"};
    if (!token.isBlank()) {
      args.addAll(List.of("--bearer", "s3cret"));
    }
    Process server = PromptdServer.target(transport, library, args, flags);
    try {
      String report = ServerCellsTest.run(args, Peers.INTEROP);
      assertThat(report)
          .contains("\"ok\": true")
          .contains(
              "\"protocolVersion\": \"" + (era.equals("modern") ? "2026-07-28" : "2025-11-25"))
          .contains("\"serverInfo\": \"promptd\"")
          // The example library's seven prompts and the skill, offered as a prompt too.
          .contains("\"prompts\": 8", "\"pages\": 4")
          .contains("\"skillPrompt\": {\"embedded\": \"skill://ops/incident-review/SKILL.md\","
              + " \"files\": [\"skill://ops/incident-review/references/checklist.md\"],"
              + " \"links\": 1}")
          .contains("\"missingArgument\": \"-32602\"")
          .contains("\"completion\": [\"French\"]")
          .contains(
              "\"resourcesRead\": 4",
              "\"resourcePages\": 2",
              "\"skillFilesRead\": 3",
              "\"skillBlobs\": 1")
          .contains("\"skillFilesMatchingDisk\": 3")
          .contains("\"listChanged\": \"ok\"");
      if (era.equals("modern")) {
        assertThat(report)
            .contains("\"skillsExtension\": {\"directoryRead\": true}")
            .contains("\"skills\": [\"incident-review\"]", "\"skillFilesVerified\": 3");
      } else {
        assertThat(report).contains("\"skillsExtension\": null", "\"skillsList\": \"-32601\"");
      }
      Matrix.record(
          "Python SDK 2.3.0 client → promptd" + token,
          transport,
          era.equals("modern") ? "modern 2026-07-28 (server/discover)" : "legacy 2025-11-25",
          "list across 4 pages, get+args, the skill's prompt (SKILL.md and its checklist embedded,"
              + " equal to disk; the PNG linked), -32602, completion, every resource read (3 skill files: text"
              + " and blob, equal to disk), "
              + (era.equals("modern")
                  ? "skills extension declared, skills/list+get via send_request, 3 manifest"
                      + " sizes+digests verified, "
                  : "no skills extension, skills/list -32601, ")
              + "list_changed after a file edit");
    } finally {
      if (server != null) {
        server.destroy();
        server.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }
}
