package io.promptd.mcp.stdio;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spawns a real server process and talks to it over its stdin and stdout. */
class StdioProcessTest {
  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

  private Process process;
  private OutputStream stdin;
  private BufferedReader stdout;

  @BeforeEach
  void start() throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    process = new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            FixtureServer.class.getName(),
            "4096")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    stdin = process.getOutputStream();
    stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
  }

  @AfterEach
  void stop() {
    process.destroyForcibly();
  }

  @Test
  void servesALegacySessionAndKeepsServingAfterAMalformedLine() throws IOException {
    send(INIT);
    assertThat(stdout.readLine())
        .contains("\"id\":1")
        .contains("\"protocolVersion\":\"2025-06-18\"");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{this is not json");
    assertThat(stdout.readLine())
        .startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}}}");
    assertThat(stdout.readLine())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"description\":\"Greets someone\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Hello, Ada!\"}}]}}");
  }

  @Test
  void requestsPipelinedBehindInitializeSeeTheSession() throws IOException {
    send(INIT);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}");
    stdin.close();
    List<String> lines = new ArrayList<>();
    for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
      lines.add(line);
    }
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("\"id\":1").contains("\"protocolVersion\"");
    assertThat(lines.get(1)).contains("\"id\":2").contains("\"name\":\"greet\"");
  }

  @Test
  void requestsThatCannotBlockAreAnsweredInOrderAndASlowOneDoesNotHoldThemUp() throws IOException {
    send(INIT);
    stdout.readLine();
    // 'gate' cannot answer before 'release', which is sent after the burst: it blocks for as long
    // as the burst takes.
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"gate\",\"method\":\"prompts/get\",\"params\":{\"name\":\"gate\"}}");
    StringBuilder burst = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      burst
          .append("{\"jsonrpc\":\"2.0\",\"id\":")
          .append(i)
          .append(
              ",\"method\":\"prompts/get\",\"params\":{\"name\":\"quick\",\"arguments\":{\"n\":\"")
          .append(i)
          .append("\"}}}\n");
    }
    stdin.write(burst.toString().getBytes(UTF_8));
    stdin.flush();
    for (int i = 0; i < 2000; i++) {
      assertThat(stdout.readLine())
          .startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",")
          .contains("n=" + i);
    }
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"release\",\"method\":\"prompts/get\",\"params\":{\"name\":\"release\"}}");
    List<String> last = List.of(stdout.readLine(), stdout.readLine());
    assertThat(last)
        .anySatisfy(l -> assertThat(l).contains("\"id\":\"release\"").contains("released"))
        .anySatisfy(l -> assertThat(l).contains("\"id\":\"gate\"").contains("through"));
  }

  @Test
  void rejectsAnOversizedLineWithoutDying() throws IOException {
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
        + "x".repeat(10_000) + "\"}}");
    assertThat(stdout.readLine())
        .doesNotContain("\"id\"")
        .contains("-32600")
        .contains("longer than 4096 bytes");
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assertThat(stdout.readLine()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
  }

  @Test
  void servesModernRequestsWithoutAHandshake() throws IOException {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    String line = stdout.readLine();
    assertThat(line)
        .contains("\"id\":\"d\"")
        .contains("\"resultType\":\"complete\"")
        .contains("\"supportedVersions\"");
  }

  @Test
  void finishesInFlightRequestsAndFlushesThemAtEndOfInput() throws Exception {
    send(INIT);
    stdout.readLine();
    for (int i = 10; i < 15; i++) {
      send("{\"jsonrpc\":\"2.0\",\"id\":" + i
          + ",\"method\":\"prompts/get\",\"params\":{\"name\":\"slow\"}}");
    }
    stdin.close();
    List<String> lines = new ArrayList<>();
    for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
      lines.add(line);
    }
    assertThat(lines).hasSize(5).allSatisfy(l -> assertThat(l).contains("\"text\":\"done\""));
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
  }

  @Test
  void cancelledRequestGetsNoResponse() throws IOException {
    send(INIT);
    stdout.readLine();
    // 'gate' is never released: only the cancellation ends it, whenever it arrives.
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":\"gate\"}}");
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
    stdin.close();
    List<String> lines = new ArrayList<>();
    for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
      lines.add(line);
    }
    assertThat(lines).containsExactly("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}");
  }

  private void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(UTF_8));
    stdin.flush();
  }
}
