package io.promptd.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The admin port (the HTTP transport's admin listener) without metrics: probes, readiness, Host
 * checks on loopback, and the flags that ask for it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminPortTest {
  /**
   * A transport with an admin listener on {@code 127.0.0.1}, any port, and nothing mounted on it.
   */
  private record Admin(McpServer server, HttpTransport http) implements AutoCloseable {
    static Admin start(BooleanSupplier loaded) throws IOException {
      McpServer server = McpServer.builder().prompts(PromptCatalog.create()).build();
      return new Admin(
          server,
          HttpTransport.builder()
              .server(server)
              .readinessCheck("library loaded", loaded)
              .admin("127.0.0.1", 0)
              .build()
              .start());
    }

    URI uri() {
      return http.adminUri().orElseThrow();
    }

    int port() {
      return uri().getPort();
    }

    @Override
    public void close() {
      http.close();
      server.close();
    }
  }

  @Test
  void readyzIs503NamingTheFailingCheckThen200() throws Exception {
    AtomicBoolean loaded = new AtomicBoolean();
    try (Admin admin = Admin.start(loaded::get);
        HttpClient client = HttpClient.newHttpClient()) {
      assertThat(admin.uri().toString()).isEqualTo("http://127.0.0.1:" + admin.port());
      HttpResponse<String> notReady = get(client, admin, "/readyz");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body())
          .isEqualTo("{\"status\":\"not ready\",\"failing\":[\"library loaded\"]}");
      loaded.set(true);
      assertThat(get(client, admin, "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(client, admin, "/healthz").body()).isEqualTo("{\"status\":\"alive\"}");
      assertThat(get(client, admin, "/metrics").statusCode())
          .as("no metrics were given")
          .isEqualTo(404);
      assertThat(get(client, admin, "/mcp").statusCode()).isEqualTo(404);
      assertThat(rawStatus(admin.port(), "evil.example.com"))
          .as("DNS rebinding")
          .isEqualTo(403);
      assertThat(rawStatus(admin.port(), "localhost:" + admin.port())).isEqualTo(200);
    }
  }

  @Test
  void theFlagsNeedHttpAndAnAdminPortApartFromTheMcpPort() {
    String dir = System.getProperty("java.io.tmpdir");
    ServeOptions o = ServeOptions.parse(
        List.of("--http", "3000", "--admin-port", "9464", "--access-log", "-", dir));
    assertThat(o.ops()).isEqualTo(new OpsOptions(9464, "127.0.0.1", "-"));
    assertThat(ServeOptions.parse(List.of("--http", dir)).ops()).isEqualTo(OpsOptions.NONE);
    assertThat(ServeOptions.parse(
                List.of("--http", "--admin-host", "0.0.0.0", "--admin-port", "0", dir))
            .ops())
        .isEqualTo(new OpsOptions(0, "0.0.0.0", null));
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--admin-port", "9464", dir)))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("need --http");
    assertThatThrownBy(
            () -> ServeOptions.parse(List.of("--http", "3000", "--admin-port", "3000", dir)))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("differ");
  }

  private static HttpResponse<String> get(HttpClient client, Admin admin, String path)
      throws Exception {
    return client.send(
        HttpRequest.newBuilder(admin.uri().resolve(path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int rawStatus(int port, String host) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      s.getOutputStream()
          .write(("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
              .getBytes(ISO_8859_1));
      String status =
          new BufferedReader(new InputStreamReader(s.getInputStream(), ISO_8859_1)).readLine();
      return Integer.parseInt(status.substring(9, 12));
    }
  }
}
