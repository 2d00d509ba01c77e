package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A prompt's missing arguments asked for by the server: the official TypeScript SDK v2 client (2026-07-28), with an
 * elicitation handler and form elicitation declared, gets a prompt without its required arguments from a real
 * {@code promptd serve}; the server answers {@code input_required}, the SDK's multi round-trip driver shows the form
 * through the handler and retries with the answers, and the rendered prompt carries them.
 */
class ElicitationCellsTest {
  @TempDir Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK v2 client with an elicitation handler over {0}")
  @ValueSource(strings = {"stdio", "http"})
  void missingArgumentsAreAskedFor(String transport) throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    List<String> args = new ArrayList<>(List.of("ts-client.mjs", "--sdk", "v2", "--get", "test_prompt_with_arguments",
        "--arg", "arg1=testValue1", "--arg", "arg2=testValue2", "--expect", "testValue1",
        "--elicit", "test_prompt_with_arguments=answered-in-a-form"));
    Process server = PromptdServer.target(transport, library, args);
    try {
      String report = ServerCellsTest.runNode(args);
      assertThat(report).contains("\"ok\":true").contains("\"elicit\":\"ok\"").contains("\"forms\":1");
      Matrix.record("TS SDK v2 client (elicitation handler) → promptd", transport, "modern 2026-07-28",
          "prompts/get without its required arguments: input_required, the form answered, the prompt rendered");
    } finally {
      if (server != null) {
        server.destroy();
      }
    }
  }
}
