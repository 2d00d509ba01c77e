package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out topology for real, as {@code bin/cluster up} starts it: PostgreSQL, the library published into it,
 * three replicas serving the store with one session secret, and HAProxy round-robin without stickiness in front.
 * The official TS SDK clients work through the balancer (a legacy session spread over the replicas included), a
 * publish reaches every replica, and killing a replica with SIGKILL does not fail the clients' requests.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  @TempDir static Path dir;
  private static Map<String, String> env;
  private static int port;
  private static int basePort;
  private static Path library;
  private static String storeUrl;

  @BeforeAll
  static void up() throws Exception {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("haproxy", "/usr/sbin/haproxy");
    ReverseProxyTest.requireDebianBinary("postgresql", "/usr/lib/postgresql");
    // JUnit makes the folder private; as root, PostgreSQL runs as postgres and must pass through it to its own.
    Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    library = PromptdServer.fixtureCopy(Files.createDirectories(dir.resolve("lib")));
    port = Peers.freePort();
    basePort = 20_000 + (int) (ProcessHandle.current().pid() % 20_000);
    env = new HashMap<>(Map.of("PROMPTD_CLUSTER_DIR", dir.resolve("state").toString(),
        "PROMPTD_CLUSTER_PORT", String.valueOf(port), "PROMPTD_CLUSTER_PG_PORT", String.valueOf(Peers.freePort()),
        "PROMPTD_CLUSTER_BASE_PORT", String.valueOf(basePort)));
    String out = cluster("up", library.toString());
    assertThat(out).contains("up: http://127.0.0.1:" + port + "/mcp");
    storeUrl = "postgresql://promptd:" + Files.readString(dir.resolve("state/db.password")).strip() + "@127.0.0.1:"
        + env.get("PROMPTD_CLUSTER_PG_PORT") + "/promptd";
  }

  @AfterAll
  static void down() throws Exception {
    if (env != null) {
      cluster("down");
    }
  }

  @Test
  @Order(1)
  void theOfficialClientsWorkThroughTheBalancer() throws Exception {
    for (String sdk : List.of("v1", "v2")) {
      Path edited = library.resolve("added_through_cluster_" + sdk + ".prompt.md");
      String publish = "printf -- '---\\ndescription: added\\n---\\nHi\\n' > '" + edited + "' && PROMPTD_STORE='"
          + storeUrl + "' '" + Peers.ROOT.resolve("promptd") + "' publish '" + library + "'";
      String report = ServerCellsTest.run(List.of("node", "ts-client.mjs", "--sdk", sdk, "--url", mcp(port).toString(),
          "--get", "test_prompt_with_arguments", "--arg", "arg1=testValue1", "--arg", "arg2=testValue2",
          "--expect", "testValue1", "--min-pages", "1", "--edit-cmd", publish), Peers.INTEROP);
      assertThat(report).as(sdk).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
      Matrix.record("TS SDK " + sdk + " client → HAProxy → 3 promptd replicas (store)", "http",
          sdk.equals("v1") ? "legacy (session spread over replicas)" : "modern 2026-07-28",
          "list, get, -32602, list_changed after a publish");
    }
    // The legacy session above was spread over the replicas (round robin; a replica HAProxy held down for a moment
    // may have had none): at least two access logs name legacy requests.
    int serving = 0;
    for (int i = 1; i <= 3; i++) {
      if (Files.readString(dir.resolve("state/replica-" + i + ".access.jsonl")).contains("\"era\":\"legacy\"")) {
        serving++;
      }
    }
    assertThat(serving).as("replicas that served the legacy session").isGreaterThanOrEqualTo(2);
  }

  @Test
  @Order(2)
  void aPublishReachesEveryReplica() throws Exception {
    List<BlockingQueue<String>> streams = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      streams.add(listen(mcp(basePort + i)));
    }
    Files.writeString(library.resolve("reaches_every_replica.prompt.md"), "---\ndescription: new\n---\nHi\n");
    ServerCellsTest.run(List.of(Peers.ROOT.resolve("promptd").toString(), "publish", library.toString(), "--store", storeUrl),
        Peers.ROOT);
    for (int i = 0; i < 3; i++) {
      String event = streams.get(i).poll(30, TimeUnit.SECONDS);
      assertThat(event).as("replica " + (i + 1) + " told its client").isNotNull().contains("list_changed");
    }
  }

  @Test
  @Order(3)
  void killingAReplicaFailsNoRequest() throws Exception {
    long pid = Long.parseLong(Files.readString(dir.resolve("state/replica-2.pid")).strip());
    ProcessHandle replica = ProcessHandle.of(pid).orElseThrow();
    replica.destroyForcibly();
    // Once it is gone (a request in flight at that instant gets HAProxy's 502: a POST is never sent twice).
    replica.onExit().get(30, TimeUnit.SECONDS);
    for (int i = 0; i < 30; i++) {
      HttpResponse<String> r = modern(mcp(port), i, "prompts/list", "{}");
      assertThat(r.statusCode()).as("request " + i + ": " + r.body()).isEqualTo(200);
      assertThat(r.body()).contains("\"id\":" + i).contains("test_prompt_with_arguments");
    }
  }

  private static URI mcp(int p) {
    return URI.create("http://127.0.0.1:" + p + "/mcp");
  }

  private static String cluster(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Peers.ROOT.resolve("bin/cluster").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(Peers.ROOT.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("bin/cluster " + args[0]).isTrue();
    assertThat(p.exitValue()).as("bin/cluster " + args[0] + ": " + out).isZero();
    return out;
  }

  private static HttpResponse<String> modern(URI uri, int id, String method, String params) throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    String p = params.equals("{}") ? "{" + meta + "}" : params.substring(0, params.length() - 1) + "," + meta + "}";
    return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method)
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + p + "}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A 2026-07-28 listen stream on one replica; its SSE data lines after the acknowledgement. */
  private static BlockingQueue<String> listen(URI replica) throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    HttpResponse<InputStream> r = HTTP.send(HttpRequest.newBuilder(replica).timeout(Duration.ofSeconds(120))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "subscriptions/listen")
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\","
            + "\"params\":{\"notifications\":{\"promptsListChanged\":true}," + meta + "}}")).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("data:") && line.contains("list_changed")) {
            events.add(line);
          }
        }
      } catch (IOException e) {
        // the stream ended with the test
      }
    });
    return events;
  }
}
