package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The official TypeScript SDK v1's {@code SSEClientTransport} (the 2024-11-05 HTTP+SSE transport)
 * against a real {@code promptd serve --http}: the client opens {@code /sse}, follows the endpoint
 * event and POSTs there. Each cell lists across pages, gets a prompt with arguments, provokes a
 * -32602 and sees a list_changed after a file edit, once as a 2024-11-05 client and once as the
 * SDK's latest version with a bearer token.
 */
class SseTransportCellsTest {
  private static final String TOKEN = "interop-sse-token-1234";

  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK v1 SSEClientTransport asking {0}, bearer token: {1}")
  @CsvSource({"2024-11-05, false", "2025-11-25, true"})
  void sseClientTransport(String version, boolean token) throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    int port = Peers.freePort();
    List<String> command = new ArrayList<>(PromptdServer.httpCommand(library, port));
    if (token) {
      command.addAll(command.size() - 1, List.of("--token", TOKEN));
    }
    List<String> args = new ArrayList<>(List.of(
        "ts-client.mjs",
        "--sdk",
        "v1",
        "--transport",
        "sse",
        "--url",
        URI.create("http://127.0.0.1:" + port + "/sse").toString(),
        "--protocol-version",
        version,
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
    if (token) {
      args.addAll(List.of("--bearer", TOKEN));
    }
    Process server = Peers.startHttp(command, port);
    try {
      String report = ServerCellsTest.runNode(args);
      assertThat(report)
          .contains("\"ok\":true")
          .contains("\"transport\":\"sse\"")
          .contains("\"version\":\"" + version + "\"")
          .contains("\"listChanged\":\"ok\"");
      Matrix.record(
          "TS SDK v1 client (SSEClientTransport) → promptd",
          "HTTP+SSE (/sse)" + (token ? ", bearer token" : ""),
          "legacy " + version,
          "list across pages, get+args, -32602, list_changed after a file edit");
    } finally {
      server.destroy();
    }
  }
}
