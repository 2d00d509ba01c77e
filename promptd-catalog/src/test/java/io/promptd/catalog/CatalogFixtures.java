package io.promptd.catalog;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A server with one prompt to mount the catalog beside, and the two requests the catalog's tests
 * make.
 */
final class CatalogFixtures {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private CatalogFixtures() {}

  static McpServer server() {
    PromptCatalog catalog = PromptCatalog.create();
    catalog.put(PromptDefinition.of(
        Prompt.of("test_simple_prompt", "A simple prompt without arguments", List.of()),
        args -> List.of(PromptMessage.user("This is a simple prompt for testing."))));
    return McpServer.builder().prompts(catalog).build();
  }

  /** A 2026-07-28 {@code prompts/list} to the MCP endpoint at {@code uri}, without a token. */
  static HttpResponse<String> listPrompts(URI uri) throws IOException, InterruptedException {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}}";
    return HTTP.send(
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "prompts/list")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The status of a request written by hand, so that its {@code Host} header can be anything. */
  static int rawStatus(int port, String requestHead, String body) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      out.write((requestHead + "Content-Length: " + b.length + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.write(b);
      out.flush();
      String status = new BufferedReader(
              new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1))
          .readLine();
      return Integer.parseInt(status.substring(9, 12));
    }
  }
}
