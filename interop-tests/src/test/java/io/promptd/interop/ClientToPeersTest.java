package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.FormHandler;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * promptd's client against official servers: server-everything (legacy) and a TypeScript SDK v2
 * server (modern).
 */
class ClientToPeersTest {
  private static final ClientOptions OPTIONS =
      ClientOptions.defaults().withTimeout(Duration.ofSeconds(30));

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @Test
  void everythingOverStdio() throws Exception {
    try (McpClient client =
        McpClient.connectStdio(Peers.node(Peers.everything().toString(), "stdio"), OPTIONS)) {
      checkEverything(client);
    }
  }

  @Test
  void everythingOverHttp() throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(
        List.of(
            "bash",
            "-c",
            "PORT=" + port + " exec node --require " + Peers.loopback() + " " + Peers.everything()
                + " streamableHttp"),
        port);
    try (McpClient client = McpClient.connectHttp(Peers.mcpUrl(port), OPTIONS)) {
      checkEverything(client);
    } finally {
      server.destroy();
    }
  }

  @Test
  void everythingAsksThroughTheFormHandlerOverStdio() throws Exception {
    FormHandlerSpy forms = new FormHandlerSpy();
    try (McpClient client = McpClient.connectStdio(
        Peers.node(Peers.everything().toString(), "stdio"), OPTIONS.withForms(forms))) {
      checkEverythingAsks(client, forms);
    }
  }

  @Test
  void everythingAsksThroughTheFormHandlerOverHttp() throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(
        List.of(
            "bash",
            "-c",
            "PORT=" + port + " exec node --require " + Peers.loopback() + " " + Peers.everything()
                + " streamableHttp"),
        port);
    FormHandlerSpy forms = new FormHandlerSpy();
    try (McpClient client = McpClient.connectHttp(Peers.mcpUrl(port), OPTIONS.withForms(forms))) {
      checkEverythingAsks(client, forms);
    } finally {
      server.destroy();
    }
  }

  /** Fills the one required field of server-everything's form and keeps what it was shown. */
  private static final class FormHandlerSpy implements FormHandler {
    final List<String> messages = new CopyOnWriteArrayList<>();
    final List<JsonObject> schemas = new CopyOnWriteArrayList<>();

    @Override
    public Answer answer(String message, JsonObject requestedSchema) {
      messages.add(message);
      schemas.add(requestedSchema);
      return Answer.accept(
          JsonObject.builder().put("name", "Ada Lovelace").put("check", true).build());
    }
  }

  /**
   * server-everything registers its trigger-elicitation-request tool only for a client that
   * declared elicitation; calling it sends elicitation/create (legacy) to the client, which answers
   * through its form handler, and the tool's result repeats the answer.
   */
  private static void checkEverythingAsks(McpClient client, FormHandlerSpy forms) throws Exception {
    assertThat(client.modern()).isFalse();
    JsonObject tools = client.call("tools/list", JsonObject.EMPTY);
    assertThat(JsonCodec.write(tools)).contains("\"trigger-elicitation-request\"");
    JsonObject result = client.call(
        "tools/call",
        JsonObject.builder()
            .put("name", "trigger-elicitation-request")
            .put("arguments", JsonObject.EMPTY)
            .build());
    assertThat(forms.messages).containsExactly("Please provide inputs for the following fields:");
    assertThat(forms.schemas.getFirst().object("properties").orElseThrow().members())
        .containsKey("name");
    assertThat(JsonCodec.write(result))
        .contains("User provided the requested information")
        .contains("Name: Ada Lovelace")
        .contains("Agreed to terms: true");
    Matrix.record(
        "promptd client (form handler) → server-everything",
        transport(client),
        era(client),
        "elicitation/create from a tool call answered through the handler; the tool's result carries the answer");
  }

  @Test
  void typeScriptV2ServerOverStdio() throws Exception {
    try (McpClient client = McpClient.connectStdio(
        Peers.node(Peers.INTEROP.resolve("ts-v2-server.mjs").toString(), "stdio"), OPTIONS)) {
      checkTypeScriptV2(client);
    }
  }

  @Test
  void typeScriptV2ServerOverHttp() throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(
        Peers.node(
            Peers.INTEROP.resolve("ts-v2-server.mjs").toString(), "http", String.valueOf(port)),
        port);
    try (McpClient client = McpClient.connectHttp(Peers.mcpUrl(port), OPTIONS)) {
      checkTypeScriptV2(client);
    } finally {
      server.destroy();
    }
  }

  private static String transport(McpClient client) {
    return client.transport();
  }

  private static String era(McpClient client) {
    return (client.modern() ? "modern " : "legacy ") + client.protocolVersion();
  }

  private static void checkEverything(McpClient client) throws Exception {
    assertThat(client.modern()).as("server-everything speaks the legacy era").isFalse();
    List<Prompt> prompts = client.listPrompts();
    assertThat(prompts).extracting(Prompt::name).contains("simple-prompt", "args-prompt");
    var result = client.getPrompt("args-prompt", Map.of("city", "Lisbon"));
    assertThat(result.messages().toString()).contains("Lisbon");
    assertThatThrownBy(() -> client.getPrompt("no-such-prompt", Map.of()))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
    Matrix.record(
        "promptd client → server-everything",
        transport(client),
        era(client),
        "list, get+args, -32602; no list change to observe");
  }

  private static void checkTypeScriptV2(McpClient client) throws Exception {
    assertThat(client.modern()).as("a v2 server speaks 2026-07-28").isTrue();
    assertThat(client.listPrompts()).extracting(Prompt::name).contains("greet", "touch");
    var result = client.getPrompt("greet", Map.of("name", "Ada"));
    assertThat(result.messages().toString()).contains("Hello, Ada!");
    assertThatThrownBy(() -> client.getPrompt("no-such-prompt", Map.of()))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
    CountDownLatch changed = new CountDownLatch(1);
    AutoCloseable watch =
        client.watchPrompts(changed::countDown); // returns once the server acknowledged it
    try {
      client.getPrompt("touch", Map.of());
      assertThat(changed.await(15, TimeUnit.SECONDS))
          .as("list_changed on the listen stream")
          .isTrue();
    } finally {
      watch.close();
    }
    assertThat(client.listPrompts()).extracting(Prompt::name).contains("touched");
    Matrix.record(
        "promptd client → TS SDK v2 server",
        transport(client),
        era(client),
        "list, get+args, -32602, list_changed via subscriptions/listen");
  }
}
