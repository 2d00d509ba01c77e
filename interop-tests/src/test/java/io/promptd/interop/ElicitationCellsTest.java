package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A prompt's missing arguments asked for by the server: an official TypeScript SDK client with an
 * elicitation handler and elicitation declared gets a prompt without its required arguments from a
 * real {@code promptd serve}. v2 (2026-07-28): the server answers {@code input_required}, the SDK's
 * multi round-trip driver shows the form through the handler and retries with the answers. v1
 * (legacy, stdio): the server sends {@code elicitation/create} and waits for the handler's answer.
 * Either way the rendered prompt carries the answers.
 */
class ElicitationCellsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK {0} client with an elicitation handler over {1}")
  @CsvSource({"v2, stdio", "v2, http", "v1, stdio", "v1, http"})
  void missingArgumentsAreAskedFor(String sdk, String transport) throws Exception {
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
        "--elicit",
        "test_prompt_with_arguments=answered-in-a-form"));
    Process server = PromptdServer.target(transport, library, args);
    try {
      String report = ServerCellsTest.runNode(args);
      assertThat(report)
          .contains("\"ok\":true")
          .contains("\"elicit\":\"ok\"")
          .contains("\"forms\":1");
      Matrix.record(
          "TS SDK " + sdk + " client (elicitation handler) → promptd",
          transport,
          sdk.equals("v2") ? "modern 2026-07-28" : "legacy 2025-11-25",
          sdk.equals("v2")
              ? "prompts/get without its required arguments: input_required, the form answered, the"
                  + " prompt rendered"
              : "prompts/get without its required arguments: elicitation/create sent to the client,"
                  + " the form answered, the prompt rendered");
    } finally {
      if (server != null) {
        server.destroy();
      }
    }
  }
}
