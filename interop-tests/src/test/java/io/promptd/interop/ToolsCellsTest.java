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
 * {@code promptd serve --prompts-as-tools} with the official TS SDK clients (v1 legacy, v2
 * 2026-07-28), over stdio and HTTP: the tools are listed, {@code get_prompt}'s schema names the
 * prompt, it renders with arguments and is a tool error without them, {@code list_prompts} lists,
 * and a library edit is {@code tools/list_changed} as well as the prompts'.
 */
class ToolsCellsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK {0} client over {1}")
  @CsvSource({"v1, stdio", "v1, http", "v2, stdio", "v2, http"})
  void promptsAsTools(String sdk, String transport) throws Exception {
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
        "--tools",
        "--edit-file",
        library.resolve("added_by_interop.prompt.md").toString()));
    Process server = PromptdServer.target(transport, library, args, "--prompts-as-tools");
    try {
      String report = ServerCellsTest.runNode(args);
      assertThat(report)
          .contains("\"ok\":true")
          .contains("\"tools\":\"ok\"")
          .contains("\"toolsListChanged\":\"ok\"");
      Matrix.record(
          "TS SDK " + sdk + " client → promptd --prompts-as-tools",
          transport,
          sdk.equals("v1") ? "legacy" : "modern 2026-07-28",
          "tools/list (get_prompt schema names the prompt), get_prompt renders, isError without arguments, "
              + "list_prompts, tools/list_changed after a file edit");
    } finally {
      if (server != null) {
        server.destroy();
      }
    }
  }
}
