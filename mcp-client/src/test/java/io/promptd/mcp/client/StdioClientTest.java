package io.promptd.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.stdio.FixtureServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real promptd server process over stdio (a dual-era server: the client stays
 * modern).
 */
class StdioClientTest {
  private McpClient client;

  @BeforeEach
  void connect() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    client = McpClient.connectStdio(
        List.of(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            FixtureServer.class.getName(),
            "65536"),
        ClientOptions.defaults().withTimeout(Duration.ofSeconds(20)));
  }

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void detectsTheModernEraAndServesPrompts() throws Exception {
    assertThat(client.modern()).isTrue();
    assertThat(client.protocolVersion()).isEqualTo("2026-07-28");
    assertThat(client.serverInfo()).isNotNull().extracting(i -> i.name()).isEqualTo("promptd");
    assertThat(client.listPrompts())
        .extracting(Prompt::name)
        .containsExactly("gate", "greet", "quick", "release", "slow", "touch");
    var result = client.getPrompt("greet", Map.of("name", "Ada"));
    assertThat(((TextContent) result.messages().getFirst().content()).text())
        .isEqualTo("Hello, Ada!");
  }

  @Test
  void carriesTheServersErrorCodeAndMessage() {
    assertThatThrownBy(() -> client.getPrompt("greet", Map.of()))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602))
        .hasMessageContaining("missing required argument 'name'");
    assertThatThrownBy(() -> client.getPrompt("nope", Map.of()))
        .isInstanceOf(McpException.class)
        .hasMessageContaining("Unknown prompt: 'nope'");
  }

  @Test
  void timesOutAndCancels() {
    McpClient impatient = client;
    assertThatThrownBy(() -> impatient.send(
            impatient.request(
                "prompts/get", JsonObject.builder().put("name", "gate").build()),
            Duration.ofMillis(50)))
        .isInstanceOf(RequestTimeoutException.class);
  }

  @Test
  void followsListChangesThroughASubscription() throws Exception {
    CountDownLatch changed = new CountDownLatch(1);
    AutoCloseable watch =
        client.watchPrompts(changed::countDown); // returns once the server acknowledged it
    try {
      client.getPrompt("touch", Map.of());
      assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      watch.close();
    }
    assertThat(client.listPrompts()).extracting(Prompt::name).contains("touched");
  }

  @Test
  void aListenerMayCallTheServer() throws Exception {
    BlockingQueue<List<String>> seen = new LinkedBlockingQueue<>();
    try (AutoCloseable watch = client.watchPrompts(() -> {
      try {
        seen.add(client.listPrompts().stream().map(Prompt::name).toList());
      } catch (Exception e) {
        seen.add(List.of("failed: " + e.getMessage()));
      }
    })) {
      client.getPrompt("touch", Map.of());
      assertThat(seen.poll(15, TimeUnit.SECONDS))
          .as("the listener's own prompts/list was answered")
          .contains("touched");
    }
  }
}
