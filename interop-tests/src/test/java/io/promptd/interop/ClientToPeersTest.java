package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** promptd's client against official servers: server-everything (legacy) and a TypeScript SDK v2 server (modern). */
class ClientToPeersTest {
  private static final ClientOptions OPTIONS = ClientOptions.defaults().withTimeout(Duration.ofSeconds(30));

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @Test
  void everythingOverStdio() throws Exception {
    try (McpClient client = McpClient.connectStdio(Peers.node(Peers.everything().toString(), "stdio"), OPTIONS)) {
      checkEverything(client);
    }
  }

  @Test
  void everythingOverHttp() throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(List.of("bash", "-c", "PORT=" + port + " exec node --require "
        + Peers.ROOT.resolve("../shared/conformance/lib/force-loopback.cjs").normalize() + " " + Peers.everything() + " streamableHttp"), port);
    try (McpClient client = McpClient.connectHttp(Peers.mcpUrl(port), OPTIONS)) {
      checkEverything(client);
    } finally {
      server.destroy();
    }
  }

  @Test
  void typeScriptV2ServerOverStdio() throws Exception {
    try (McpClient client = McpClient.connectStdio(Peers.node(
        Peers.INTEROP.resolve("ts-v2-server.mjs").toString(), "stdio"), OPTIONS)) {
      checkTypeScriptV2(client);
    }
  }

  @Test
  void typeScriptV2ServerOverHttp() throws Exception {
    int port = Peers.freePort();
    Process server = Peers.startHttp(Peers.node(
        Peers.INTEROP.resolve("ts-v2-server.mjs").toString(), "http", String.valueOf(port)), port);
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
    Matrix.record("promptd client → server-everything", transport(client), era(client), "list, get+args, -32602; no list change to observe");
  }

  private static void checkTypeScriptV2(McpClient client) throws Exception {
    assertThat(client.modern()).as("a v2 server speaks 2026-07-28").isTrue();
    assertThat(client.listPrompts()).extracting(Prompt::name).contains("greet", "touch");
    var result = client.getPrompt("greet", Map.of("name", "Ada"));
    assertThat(result.messages().toString()).contains("Hello, Ada!");
    assertThatThrownBy(() -> client.getPrompt("no-such-prompt", Map.of()))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
    CountDownLatch changed = new CountDownLatch(1);
    AutoCloseable watch = client.watchPrompts(changed::countDown); // returns once the server acknowledged it
    try {
      client.getPrompt("touch", Map.of());
      assertThat(changed.await(15, TimeUnit.SECONDS)).as("list_changed on the listen stream").isTrue();
    } finally {
      watch.close();
    }
    assertThat(client.listPrompts()).extracting(Prompt::name).contains("touched");
    Matrix.record("promptd client → TS SDK v2 server", transport(client), era(client), "list, get+args, -32602, list_changed via subscriptions/listen");
  }
}
