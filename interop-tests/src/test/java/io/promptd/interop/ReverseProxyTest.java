package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * promptd behind a real nginx with the proxy settings {@code docs/deploy.md} documents
 * ({@code --trust-proxy}, {@code --public-url} naming the proxy): the official TS SDK clients of
 * both eras work through it, list_changed streams included, and a foreign Host sent to the proxy is
 * still refused.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReverseProxyTest {
  @TempDir
  Path dir;

  private Process promptd;
  private Process nginx;
  private Path library;
  private int proxyPort;

  @BeforeEach
  void start() throws Exception {
    Peers.requireNode();
    Path binary = nginxBinary();
    library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    int serverPort = Peers.freePort();
    proxyPort = Peers.freePort();
    List<String> command = PromptdServer.httpCommand(library, serverPort);
    command.addAll(
        List.of("--trust-proxy", "--public-url", "http://127.0.0.1:" + proxyPort + "/mcp"));
    promptd = Peers.startHttp(command, serverPort);
    Path conf = dir.resolve("nginx.conf");
    Files.writeString(conf, nginxConf(dir, proxyPort, serverPort), UTF_8);
    nginx = Peers.startHttp(
        List.of(binary.toString(), "-p", dir.toString(), "-c", conf.toString(), "-e", "stderr"),
        proxyPort);
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : new Process[] {nginx, promptd}) {
      if (p != null) {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  @Test
  void theOfficialClientsWorkThroughTheProxy() throws Exception {
    for (String sdk : List.of("v1", "v2")) {
      Path edited = library.resolve("added_through_proxy_" + sdk + ".prompt.md");
      List<String> command = new ArrayList<>(List.of(
          "node",
          "ts-client.mjs",
          "--sdk",
          sdk,
          "--url",
          "http://127.0.0.1:" + proxyPort + "/mcp",
          "--get",
          "test_prompt_with_arguments",
          "--arg",
          "arg1=testValue1",
          "--arg",
          "arg2=testValue2",
          "--expect",
          "testValue1",
          "--edit-file",
          edited.toString(),
          "--min-pages",
          "2"));
      String report = ServerCellsTest.run(command, Peers.INTEROP);
      assertThat(report).as(sdk).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
      Matrix.record(
          "TS SDK " + sdk + " client → nginx → promptd",
          "http",
          sdk.equals("v1") ? "legacy" : "modern 2026-07-28",
          "list, get, -32602, list_changed through a reverse proxy");
    }
  }

  @Test
  void aForeignHostSentToTheProxyIsStillRefused() throws Exception {
    assertThat(status("127.0.0.1:" + proxyPort)).isEqualTo(200);
    assertThat(status("evil.example.com")).isEqualTo(403);
  }

  private int status(String host) throws IOException {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    try (Socket s = new Socket("127.0.0.1", proxyPort)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
              + "Accept: application/json, text/event-stream\r\nContent-Length: "
              + body.getBytes(UTF_8).length
              + "\r\nConnection: close\r\n\r\n" + body)
          .getBytes(UTF_8));
      out.flush();
      String line = new BufferedReader(new InputStreamReader(s.getInputStream(), UTF_8)).readLine();
      return Integer.parseInt(line.substring(9, 12));
    }
  }

  /**
   * The location block of docs/deploy.md, in a configuration nginx can run unprivileged from
   * {@code prefix}.
   */
  static String nginxConf(Path prefix, int listen, int upstream) {
    return """
        daemon off;
        master_process off;
        pid %1$s/nginx.pid;
        error_log stderr warn;
        events { worker_connections 256; }
        http {
          access_log off;
          client_body_temp_path %1$s/client_body;
          proxy_temp_path %1$s/proxy;
          fastcgi_temp_path %1$s/fastcgi;
          uwsgi_temp_path %1$s/uwsgi;
          scgi_temp_path %1$s/scgi;
          server {
            listen 127.0.0.1:%2$d;
            location /mcp {
              proxy_pass http://127.0.0.1:%3$d;
              proxy_http_version 1.1;
              proxy_set_header Host $http_host;
              proxy_set_header X-Forwarded-Host $http_host;
              proxy_set_header X-Forwarded-Proto $scheme;
              proxy_set_header X-Forwarded-For $remote_addr;
              proxy_set_header Connection "";
              proxy_buffering off;
              proxy_cache off;
              proxy_read_timeout 1h;
            }
          }
        }
        """.formatted(prefix, listen, upstream);
  }

  /**
   * Checks that a Debian package's binary (or folder) is present: bin/test installs the package
   * when run as root; missing in CI is a failure, elsewhere the test is skipped with what to
   * install.
   */
  static void requireDebianBinary(String pkg, String path) {
    if (Files.exists(Path.of(path))) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          pkg + " is missing in CI: bin/test installs it (apt-get install " + pkg + ")");
    }
    assumeThat(false).as(pkg + " installed (apt-get install " + pkg + ")").isTrue();
  }

  /**
   * nginx from PATH or /usr/sbin; bin/test installs it when run as root. Missing in CI is a
   * failure.
   */
  static Path nginxBinary() {
    for (String candidate : List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return Path.of(candidate);
      }
    }
    if ("true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "nginx is missing in CI: bin/test installs it (apt-get install nginx-light)");
    }
    assumeThat(false).as("nginx installed (apt-get install nginx-light)").isTrue();
    throw new AssertionError("unreachable");
  }
}
