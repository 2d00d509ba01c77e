package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * promptd's prompt library on the official MCP Java SDK 2.2's 2026-07-28 stack, through
 * promptd-java-sdk-modern ({@link SdkModernServer}, the SDK's stdio transport, two prompts to a
 * page): the official TS SDK v2 client pinned to 2026-07-28 lists across pages, renders with
 * arguments, gets -32602 for an unknown prompt, answers promptd's form when it leaves the arguments
 * out (an {@code input_required} round through the SDK), and hears {@code list_changed} through
 * {@code subscriptions/listen} after a prompt file is added. Skipped under {@code -Psdk-2.1}: that
 * SDK has no modern stack.
 */
class JavaSdkModernTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void requirements() {
    Peers.requireNode();
    assumeTrue(
        JavaSnippetsTest.sdkHasModernStack(),
        "the official Java SDK on the class path has no modern stack (it came in 2.2.0)");
  }

  @Test
  void theTypeScriptV2ClientUsesTheLibraryThroughTheSdksModernServer() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    List<String> server = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        SdkModernServer.class.getName(),
        library.toString(),
        "2");
    String report = ServerCellsTest.runNode(new ArrayList<>(List.of(
        "ts-client.mjs",
        "--sdk",
        "v2",
        "--stdio",
        PromptdServer.shell(server),
        "--min-pages",
        "2",
        "--page-size",
        "2",
        "--get",
        "test_prompt_with_arguments",
        "--arg",
        "arg1=testValue1",
        "--arg",
        "arg2=testValue2",
        "--expect",
        "testValue1",
        "--elicit",
        "test_prompt_with_arguments=answered-in-a-form",
        "--edit-file",
        library.resolve("added_by_interop.prompt.md").toString())));
    assertThat(report)
        .contains("\"ok\":true")
        .contains("\"era\":\"modern\"")
        .contains("\"elicit\":\"ok\"")
        .contains("\"forms\":1")
        .contains("\"listChanged\":\"ok\"");
    Matrix.record(
        "TS SDK v2 client → Java SDK 2.2.0 modern server + promptd-java-sdk-modern",
        "stdio",
        "modern 2026-07-28",
        "list across pages, get+args, -32602, a form answered (input_required), list_changed");
  }
}
