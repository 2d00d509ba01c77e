package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code promptd health URL}: the probe a container health check or a script runs against a real
 * server on port 0 — by its MCP URL or the admin port's base URL, {@code --ready} for readiness —
 * and what it says when nothing answers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HealthCliTest {
  private record Status(int code, String err) {}

  private static Status health(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> line = new ArrayList<>(List.of("health"));
    line.addAll(List.of(args));
    int code = Main.run(line, new PrintStream(err, true, UTF_8));
    return new Status(code, err.toString(UTF_8));
  }

  @Test
  void aRunningServerIsHealthyByItsMcpUrlOrTheAdminPortsBaseUrl() throws Exception {
    AtomicBoolean loaded = new AtomicBoolean();
    McpServer server = McpServer.builder().prompts(PromptCatalog.create()).build();
    HttpTransport http = HttpTransport.builder()
        .server(server)
        .readinessCheck("library loaded", loaded::get)
        .admin("127.0.0.1", 0)
        .build()
        .start();
    try {
      String mcp = http.uri().toString();
      assertThat(mcp).endsWith("/mcp");
      assertThat(health(mcp)).isEqualTo(new Status(Main.OK, ""));
      String admin = http.adminUri().orElseThrow().toString(); // http://127.0.0.1:PORT, no path
      assertThat(health(admin)).isEqualTo(new Status(Main.OK, ""));
      assertThat(health(admin + "/", "--timeout", "2").code()).isEqualTo(Main.OK);

      String probe = mcp.replace("/mcp", "/readyz");
      assertThat(health("--ready", mcp))
          .isEqualTo(new Status(
              Main.SERVER_ERROR,
              "promptd: " + probe + " answered 503: "
                  + "{\"status\":\"not ready\",\"failing\":[\"library loaded\"]}\n"));
      loaded.set(true);
      assertThat(health("--ready", mcp)).isEqualTo(new Status(Main.OK, ""));
    } finally {
      http.close();
      server.close();
    }
  }

  @Test
  void nothingListeningOrNoAnswerIsOneLineNamingTheCause() throws Exception {
    int free;
    try (ServerSocket s = new ServerSocket(0)) {
      free = s.getLocalPort();
    }
    Status refused = health("http://127.0.0.1:" + free + "/mcp");
    assertThat(refused.code()).isEqualTo(Main.CONNECTION_FAILED);
    assertThat(refused.err())
        .isEqualTo(
            "promptd: cannot reach http://127.0.0.1:" + free
                + "/healthz: the connection was refused (is the server running, on that host and port?)\n");

    // A listener that accepts the connection and never answers.
    // The kernel completes the connection from the listener's backlog; nobody reads the request.
    try (ServerSocket silent = new ServerSocket(0)) {
      long start = System.nanoTime();
      Status timedOut =
          health("http://127.0.0.1:" + silent.getLocalPort() + "/mcp", "--timeout", "1");
      assertThat(timedOut.code()).isEqualTo(Main.CONNECTION_FAILED);
      assertThat(timedOut.err())
          .isEqualTo("promptd: cannot reach http://127.0.0.1:" + silent.getLocalPort()
              + "/healthz: no answer within 1 s\n");
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }
  }

  @Test
  void aUrlThatIsNotAnHttpServersIsAUsageError() {
    for (String url : List.of("ftp://127.0.0.1/mcp", "notaurl", "http:///mcp")) {
      Status s = health(url);
      assertThat(s.code()).as(url).isEqualTo(Main.USAGE);
      assertThat(s.err())
          .as(url)
          .startsWith("promptd: health needs an http:// or https:// URL")
          .endsWith("\npromptd: see 'promptd help health'\n")
          .doesNotContain("Exception");
    }
    assertThat(health("http://127.0.0.1:8080/catalog/app.js").err())
        .contains("the MCP URL (…/mcp) or a base URL (…/)");
    assertThat(health().err()).startsWith("promptd: health takes one URL");
    assertThat(health("http://127.0.0.1:8080/mcp", "--timeout", "soon").code())
        .isEqualTo(Main.USAGE);
    assertThat(health("--bogus", "http://127.0.0.1:8080/mcp").err())
        .startsWith("promptd: unknown option '--bogus'");
  }

  /**
   * The container image has no shell to run {@code bin/promptd}: its health check runs {@code java
   * -jar lib/promptd.jar health URL}, where the jar's manifest class path names nothing that
   * exists. So {@code health} must run with promptd-cli's own classes alone.
   */
  @Test
  void itRunsWithPromptdsOwnClassesAlone() throws Exception {
    Path classes =
        Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(
            classes.endsWith(Path.of("target", "classes")) || classes.toString().endsWith(".jar"))
        .as(classes.toString())
        .isTrue();
    McpServer server = McpServer.builder().prompts(PromptCatalog.create()).build();
    HttpTransport http = HttpTransport.builder().server(server).build().start();
    try {
      Process p = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-XX:-UsePerfData",
              "-cp",
              classes.toString(),
              Main.class.getName(),
              "health",
              http.uri().toString())
          .redirectErrorStream(true)
          .start();
      String out = CliProcessTest.read(p.getInputStream());
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out)
          .isEqualTo(
              http.uri().toString().replace("/mcp", "/healthz") + ": {\"status\":\"alive\"}\n");
    } finally {
      http.close();
      server.close();
    }
  }
}
