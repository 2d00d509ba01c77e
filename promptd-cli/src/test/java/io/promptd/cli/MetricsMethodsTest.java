package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.ServedMethod;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every method in the server's method table is counted under its own name in {@code /metrics}: the
 * label set is read from the table, so a method a feature adds (the skills methods,
 * {@code resources/directory/read}) is never {@code other}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetricsMethodsTest {
  private static final String MODERN = "2026-07-28";

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void everyMethodOfTheTableIsCountedUnderItsOwnName(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: d\n---\nhello\n");
    try (Library library =
            Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults());
        McpServer server =
            McpServer.builder().prompts(library.catalog()).promptsAsTools(true).build()) {
      Metrics metrics = new Metrics(server, library);
      List<ServedMethod> methods = List.copyOf(server.methods());
      assertThat(methods)
          .extracting(ServedMethod::name)
          .contains(
              "skills/list",
              "skills/get",
              "resources/directory/read",
              "prompts/get",
              "notifications/initialized");
      int expected = 0;
      for (ServedMethod m : methods) {
        expected += (m.legacy() ? 1 : 0) + (m.modern() ? 1 : 0);
      }
      CountDownLatch recorded = new CountDownLatch(expected + 1); // and the initialize
      try (HttpTransport http = HttpTransport.builder()
          .server(server)
          .port(0)
          .onRequest(e -> {
            metrics.record(e);
            recorded.countDown();
          })
          .build()
          .start()) {
        URI mcp = http.uri();
        String session = post(
                mcp,
                request(
                    0,
                    "initialize",
                    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"m\",\"version\":\"1\"}}"))
            .headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow();
        long id = 1;
        for (ServedMethod m : methods) {
          String field = m.nameField() == null ? "name" : m.nameField();
          if (m.legacy()) {
            String params = "{\"" + field + "\":\"x\"}";
            String body = m.notification()
                ? "{\"jsonrpc\":\"2.0\",\"method\":\"" + m.name() + "\",\"params\":" + params + "}"
                : request(id++, m.name(), params);
            post(mcp, body, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18");
          }
          if (m.modern()) {
            List<String> headers =
                new ArrayList<>(List.of("MCP-Protocol-Version", MODERN, "Mcp-Method", m.name()));
            if (m.nameField() != null) {
              headers.addAll(List.of("Mcp-Name", "x"));
            }
            post(
                mcp,
                modern(id++, m.name(), "\"" + field + "\":\"x\""),
                headers.toArray(String[]::new));
          }
        }
        assertThat(recorded.await(30, TimeUnit.SECONDS))
            .as("a request event for each request")
            .isTrue();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      metrics.write(out);
      Map<String, Double> samples =
          OperationsProcessTest.parse(out.toString(StandardCharsets.UTF_8));
      for (ServedMethod m : methods) {
        for (String era : m.legacy() && m.modern()
            ? List.of("legacy", "modern")
            : List.of(m.legacy() ? "legacy" : "modern")) {
          assertThat(samples.entrySet())
              .as("%s in the %s era is counted under its own name", m.name(), era)
              .anySatisfy(s -> assertThat(s.getKey())
                  .startsWith("promptd_requests_total{era=" + era + ",method=" + m.name() + ","));
        }
      }
      assertThat(samples.keySet()).noneMatch(k -> k.contains("method=other"));
    }
  }

  private HttpResponse<String> post(URI uri, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String request(long id, String method, String params) {
    return OperationsProcessTest.request(id, method, params);
  }

  private static String modern(long id, String method, String members) {
    return OperationsProcessTest.modern(id, method, members);
  }
}
