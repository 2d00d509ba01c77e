package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

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
 * Two promptd processes over the same folder with the same {@code --session-secret}, behind a real
 * nginx that sends requests round-robin with no stickiness: the official TS SDK v1 client's legacy
 * session works end to end (list over pages, get, an error, list_changed after an edit), each of
 * its requests going to the other replica.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RoundRobinSessionsTest {
  @TempDir
  Path dir;

  private final List<Process> processes = new ArrayList<>();
  private Path library;
  private int proxyPort;
  private final List<Path> accessLogs = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    Peers.requireNode();
    Path nginx = ReverseProxyTest.nginxBinary();
    library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    Path secret = Files.writeString(
        dir.resolve("session-secret"), "replicas-share-this-secret-0123456789\n", UTF_8);
    proxyPort = Peers.freePort();
    List<Integer> ports = List.of(Peers.freePort(), Peers.freePort());
    for (int port : ports) {
      List<String> command = PromptdServer.httpCommand(library, port);
      command.addAll(List.of(
          "--trust-proxy",
          "--public-url",
          "http://127.0.0.1:" + proxyPort + "/mcp",
          "--session-secret",
          secret.toString(),
          "--access-log",
          dir.resolve("access-" + port + ".log").toString()));
      accessLogs.add(dir.resolve("access-" + port + ".log"));
      processes.add(Peers.startHttp(command, port));
    }
    Path conf = dir.resolve("nginx.conf");
    String single = ReverseProxyTest.nginxConf(dir, proxyPort, ports.get(0));
    String roundRobin = single
        .replace(
            "http {",
            "http {\n  upstream replicas { server 127.0.0.1:" + ports.get(0) + "; server 127.0.0.1:"
                + ports.get(1) + "; }")
        .replace(
            "proxy_pass http://127.0.0.1:" + ports.get(0) + ";", "proxy_pass http://replicas;");
    assertThat(roundRobin).contains("proxy_pass http://replicas;");
    Files.writeString(conf, roundRobin, UTF_8);
    processes.add(Peers.startHttp(
        List.of(nginx.toString(), "-p", dir.toString(), "-c", conf.toString(), "-e", "stderr"),
        proxyPort));
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : processes.reversed()) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    processes.clear();
  }

  @Test
  void theOfficialV1ClientsSessionSpreadsOverBothReplicas() throws Exception {
    Path edited = library.resolve("added_round_robin.prompt.md");
    List<String> command = List.of(
        "node",
        "ts-client.mjs",
        "--sdk",
        "v1",
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
        "2");
    String out = ServerCellsTest.run(command, Peers.INTEROP);
    assertThat(out).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
    stop(); // the access logs are complete once the replicas have stopped
    for (Path log : accessLogs) {
      String lines = Files.readString(log, UTF_8);
      // Both replicas served the session's requests, and none was refused as an unknown session.
      assertThat(lines)
          .as(log.toString())
          .contains("\"era\":\"legacy\"")
          .contains("\"method\":\"prompts/list\"")
          .doesNotContain("\"status\":404");
    }
    Matrix.record(
        "TS SDK v1 client → nginx round-robin → 2 promptd replicas",
        "http",
        "legacy",
        "one session spread over replicas sharing --session-secret: list, get, -32602, list_changed");
  }
}
