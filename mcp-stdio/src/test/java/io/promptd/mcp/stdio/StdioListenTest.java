package io.promptd.mcp.stdio;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.McpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tearing down a 2026-07-28 {@code subscriptions/listen} stream over stdio. When the server ends it
 * (its input ended, it is shutting down) it sends {@code notifications/cancelled} referencing the
 * listen request (cancellation: MUST), then the graceful result (subscriptions: SHOULD); when the
 * client cancels, neither.
 */
class StdioListenTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String LISTEN =
      "{\"jsonrpc\":\"2.0\",\"id\":\"watch\",\"method\":\"subscriptions/listen\","
          + "\"params\":{\"notifications\":{\"promptsListChanged\":true},\"_meta\":{\"io.modelcontextprotocol/"
          + "protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
  private static final String ACK =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
          + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"watch\"},"
          + "\"notifications\":{\"promptsListChanged\":true}}}";

  private final McpServer server = McpServer.builder()
      .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
      .build();
  private static final String END = "(end of output)";

  private final PipedOutputStream client = new PipedOutputStream();
  /**
   * What the server writes, line by line, then {@link #END}: a pipe would fail once its writing
   * thread ended.
   */
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private final Thread transport;

  StdioListenTest() throws IOException {
    PipedInputStream stdin = new PipedInputStream(client, 1 << 16);
    OutputStream stdout = new OutputStream() {
      private final ByteArrayOutputStream line = new ByteArrayOutputStream();

      @Override
      public synchronized void write(int b) {
        if (b == '\n') {
          lines.add(line.toString(UTF_8));
          line.reset();
        } else {
          line.write(b);
        }
      }

      @Override
      public void close() {
        lines.add(END);
      }
    };
    transport = Thread.ofVirtual().start(() -> {
      try (stdout) {
        StdioTransport.create(server, stdin, stdout).run();
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @AfterEach
  void close() throws Exception {
    client.close();
    assertThat(transport.join(PATIENCE)).as("the transport ended").isTrue();
    server.close();
  }

  @Test
  void theEndOfInputAnnouncesTheTeardownThenAnswersTheListen() throws Exception {
    send(LISTEN);
    assertThat(next()).isEqualTo(ACK);
    client.close();
    assertThat(rest())
        .containsExactly(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"watch\","
                + "\"reason\":\"the session closed\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"watch\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"watch\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":"
                + "\"watch\",\"io.modelcontextprotocol/serverInfo\":" + serverInfo()
                + "},\"resultType\":\"complete\"}}");
  }

  @Test
  void aServerShuttingDownAnnouncesTheTeardownThenAnswersTheListen() throws Exception {
    send(LISTEN);
    assertThat(next()).isEqualTo(ACK);
    server.close();
    assertThat(next())
        .contains(
            "\"method\":\"notifications/cancelled\"",
            "\"requestId\":\"watch\"",
            "\"reason\":\"the server is shutting down\"");
    assertThat(next()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":\"watch\",\"result\":");
  }

  @Test
  void aListenTheClientCancelsGetsNeitherNotificationNorAnswer() throws Exception {
    send(LISTEN);
    assertThat(next()).isEqualTo(ACK);
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"watch\"}}");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/"
            + "protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    client.close();
    List<String> rest = rest();
    assertThat(rest).hasSize(1);
    assertThat(rest.getFirst()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":");
  }

  private void send(String line) throws IOException {
    client.write((line + "\n").getBytes(UTF_8));
    client.flush();
  }

  private String next() throws InterruptedException {
    String line = lines.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(line).as("a line within " + PATIENCE).isNotNull().isNotEqualTo(END);
    return line;
  }

  /** Every line up to the end of output, which comes once the transport has finished. */
  private List<String> rest() throws InterruptedException {
    List<String> out = new ArrayList<>();
    for (String line = next0(); !line.equals(END); line = next0()) {
      out.add(line);
    }
    return out;
  }

  private String next0() throws InterruptedException {
    String line = lines.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(line).as("the end of output within " + PATIENCE).isNotNull();
    return line;
  }

  private String serverInfo() {
    return "{\"name\":\"" + server.serverInfo().name() + "\",\"title\":\""
        + server.serverInfo().title() + "\",\"version\":\""
        + server.serverInfo().version() + "\"}";
  }
}
