package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official Java SDK client ({@code io.modelcontextprotocol.sdk:mcp} 2.1.0) against a real
 * promptd server.
 */
class JavaSdkClientTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "Java SDK client over {0}")
  @ValueSource(strings = {"stdio", "http"})
  void javaSdkClient(String transport) throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    CountDownLatch changed = new CountDownLatch(1);
    Process server = null;
    McpClientTransport clientTransport;
    if (transport.equals("stdio")) {
      List<String> command = PromptdServer.stdioCommand(library);
      clientTransport = new StdioClientTransport(
          ServerParameters.builder(command.getFirst())
              .args(command.subList(1, command.size()))
              .build(),
          McpJsonDefaults.getMapper());
    } else {
      int port = Peers.freePort();
      server = Peers.startHttp(PromptdServer.httpCommand(library, port), port);
      clientTransport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
          .endpoint("/mcp")
          .build();
    }
    McpSyncClient client = McpClient.sync(clientTransport)
        .requestTimeout(Duration.ofSeconds(30))
        .promptsChangeConsumer(prompts -> changed.countDown())
        .build();
    try {
      client.initialize();
      List<String> names = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        McpSchema.ListPromptsResult page = client.listPrompts(cursor);
        page.prompts().forEach(p -> names.add(p.name()));
        cursor = page.nextCursor();
        pages++;
      } while (cursor != null);
      assertThat(pages).isGreaterThan(1);
      assertThat(names)
          .doesNotHaveDuplicates()
          .contains("test_simple_prompt", "test_prompt_with_arguments");
      var result = client.getPrompt(new McpSchema.GetPromptRequest(
          "test_prompt_with_arguments", Map.of("arg1", "testValue1", "arg2", "testValue2"), null));
      assertThat(result.messages().toString()).contains("testValue1").contains("testValue2");
      assertThatThrownBy(() ->
              client.getPrompt(new McpSchema.GetPromptRequest("no-such-prompt", Map.of(), null)))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
      Files.writeString(
          library.resolve("added_by_java_sdk.prompt.md"), "---\ndescription: Added\n---\nHi.\n");
      assertThat(changed.await(15, TimeUnit.SECONDS))
          .as("list_changed after a file edit")
          .isTrue();
      Matrix.record(
          "Java SDK 2.1.0 client → promptd",
          transport,
          "legacy " + client.getCurrentInitializationResult().protocolVersion(),
          "list across pages, get+args, -32602, list_changed after a file edit");
    } finally {
      client.closeGracefully();
      if (server != null) {
        server.destroy();
      }
    }
  }

  /**
   * The Java SDK client with an elicitation handler (legacy, stdio): promptd sends
   * {@code elicitation/create} for the prompt's missing arguments, the handler fills the form, and
   * the prompt renders with the answers.
   */
  @org.junit.jupiter.api.Test
  void javaSdkClientAnswersTheServersForm() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    List<String> command = PromptdServer.stdioCommand(library);
    McpClientTransport clientTransport = new StdioClientTransport(
        ServerParameters.builder(command.getFirst())
            .args(command.subList(1, command.size()))
            .build(),
        McpJsonDefaults.getMapper());
    List<String> messages = new CopyOnWriteArrayList<>();
    McpSyncClient client = McpClient.sync(clientTransport)
        .requestTimeout(Duration.ofSeconds(30))
        .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
        .elicitation(request -> {
          messages.add(request.message());
          Map<String, Object> content = new HashMap<>();
          @SuppressWarnings("unchecked")
          Map<String, Object> properties =
              (Map<String, Object>) request.requestedSchema().get("properties");
          properties.keySet().forEach(k -> content.put(k, "from-java-" + k));
          return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, content);
        })
        .build();
    try {
      client.initialize();
      var result = client.getPrompt(
          new McpSchema.GetPromptRequest("test_prompt_with_arguments", Map.of(), null));
      assertThat(result.messages().toString())
          .contains("from-java-arg1")
          .contains("from-java-arg2");
      assertThat(messages).hasSize(1);
      assertThat(messages.getFirst()).contains("arg1", "arg2");
      Matrix.record(
          "Java SDK 2.1.0 client (elicitation handler) → promptd",
          "stdio",
          "legacy " + client.getCurrentInitializationResult().protocolVersion(),
          "prompts/get without its required arguments: elicitation/create sent to the client, the form answered,"
              + " the prompt rendered");
    } finally {
      client.closeGracefully();
    }
  }
}
