package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official TypeScript SDK v1 client cancels a legacy request over Streamable HTTP (it sends
 * {@code notifications/cancelled}); promptd's answer to the cancelled POST must be a framing the
 * SDK accepts without raising an error, and the session goes on. The server is promptd's library in
 * this process, with a prompt that renders until it is cancelled.
 */
class CancelCellTest {
  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @Test
  void tsSdkV1CancelsALegacyRequestAndRaisesNothing() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    try (McpServer server = McpServer.builder().build();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of(
                  "greet",
                  "says hello",
                  List.of(new PromptArgument("who", null, "who to greet", true))),
              args -> List.of(PromptMessage.user("Hello, " + args.get("who")))));
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of("slow", "renders until cancelled", List.of()), args -> {
                try {
                  // Interrupted by the cancellation; the test's timeout bounds it otherwise
                  Thread.sleep(60_000);
                } catch (InterruptedException e) {
                  interrupted.countDown();
                  Thread.currentThread().interrupt();
                }
                return List.of(PromptMessage.user("too late"));
              }));
      String report = ServerCellsTest.runNode(List.of(
          "ts-client.mjs",
          "--sdk",
          "v1",
          "--url",
          http.uri().toString(),
          "--get",
          "greet",
          "--arg",
          "who=interop",
          "--expect",
          "Hello, interop",
          "--cancel",
          "slow"));
      assertThat(report).contains("\"ok\":true").contains("\"cancel\":\"ok\"");
      assertThat(interrupted.await(10, TimeUnit.SECONDS))
          .as("the cancellation reached the renderer")
          .isTrue();
      Matrix.record(
          "TS SDK v1 client → promptd",
          "Streamable HTTP",
          "legacy 2025-11-25",
          "a request cancelled with notifications/cancelled: its POST's answer raises nothing");
    }
  }
}
