package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One policy for errors that answer a message whose id could not be read (a parse error, an id of
 * the wrong type), on stdio and on HTTP alike: the schemas up to 2025-06-18 require an id, and
 * JSON-RPC 2.0 says it is {@code null} then; 2025-11-25 and 2026-07-28 make the id optional, so it
 * is left out — and so is it before any version is in force. The same bad input in the same state
 * gets the same bytes on both transports.
 */
class UnreadableIdPolicyTest {
  private static final List<String> UNREADABLE = List.of(
      "{this is not json",
      "{\"jsonrpc\":\"2.0\",\"id\":{\"an\":\"object\"},\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"prompts/list\"}");

  @Test
  void unreadableIdsAreAnsweredAlikeOnStdioAndHttp() throws Exception {
    for (String version :
        new String[] {null, "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      List<String> stdio = overStdio(version);
      List<String> http = overHttp(version);
      String state = version == null ? "before initialize" : "a " + version + " session";
      assertThat(http).as(state).isEqualTo(stdio);
      boolean nullId = version != null && !version.equals("2025-11-25");
      for (String answer : stdio) {
        assertThat(answer)
            .as(state)
            .contains("\"error\":{\"code\":-32")
            .doesNotContain("Exception");
        if (nullId) {
          assertThat(answer).as(state).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":");
        } else {
          assertThat(answer)
              .as(state)
              .startsWith("{\"jsonrpc\":\"2.0\",\"error\":")
              .doesNotContain("\"id\"");
        }
      }
    }
  }

  /**
   * 2026-07-28 over HTTP (the version in the headers) leaves the id out, as stdio does before
   * initialize.
   */
  @Test
  void aModernHttpRequestWithAnUnreadableIdLeavesTheIdOut() throws Exception {
    try (McpServer server = McpServer.builder().build();
        HttpTransport transport = HttpTransport.builder().server(server).build().start()) {
      HttpClient http =
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      for (String body : UNREADABLE) {
        HttpResponse<String> r = http.send(
            HttpRequest.newBuilder(transport.uri())
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "ping")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body())
            .startsWith("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32")
            .doesNotContain("\"id\"");
      }
    }
  }

  private static String initialize(String version) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
        + version
        + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"policy-test\",\"version\":\"1\"}}}";
  }

  private static List<String> overStdio(String version) throws Exception {
    try (McpServer server = McpServer.builder().build()) {
      PipedOutputStream toServer = new PipedOutputStream();
      PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
      PipedInputStream fromServer = new PipedInputStream(1 << 16);
      OutputStream serverOut = new PipedOutputStream(fromServer);
      Thread runner = Thread.ofVirtual().start(() -> {
        try {
          StdioTransport.create(server, serverIn, serverOut).run();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      BufferedReader out = new BufferedReader(new InputStreamReader(fromServer, UTF_8));
      if (version != null) {
        toServer.write((initialize(version) + "\n").getBytes(UTF_8));
        toServer.flush();
        assertThat(out.readLine()).contains("\"protocolVersion\":\"" + version + "\"");
      }
      List<String> answers = new ArrayList<>();
      for (String line : UNREADABLE) {
        toServer.write((line + "\n").getBytes(UTF_8));
        toServer.flush();
        answers.add(out.readLine());
      }
      toServer.close(); // end of input ends the transport
      runner.join(TimeUnit.SECONDS.toMillis(10));
      return answers;
    }
  }

  private static List<String> overHttp(String version) throws Exception {
    try (McpServer server = McpServer.builder().build();
        HttpTransport transport = HttpTransport.builder().server(server).build().start()) {
      HttpClient http =
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String session = null;
      if (version != null) {
        HttpResponse<String> init = http.send(
            post(transport, initialize(version), null, null), HttpResponse.BodyHandlers.ofString());
        assertThat(init.body()).contains("\"protocolVersion\":\"" + version + "\"");
        session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      }
      List<String> answers = new ArrayList<>();
      for (String body : UNREADABLE) {
        HttpResponse<String> r = http.send(
            post(transport, body, session, version), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        answers.add(r.body());
      }
      return answers;
    }
  }

  private static HttpRequest post(
      HttpTransport transport, String body, String session, String version) {
    HttpRequest.Builder b = HttpRequest.newBuilder(transport.uri())
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
      if (!version.equals("2024-11-05") && !version.equals("2025-03-26")) {
        b.header("MCP-Protocol-Version", version);
      }
    }
    return b.build();
  }
}
