package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out topology for real, as {@code bin/cluster up} starts it: PostgreSQL, the library
 * published into it, three replicas serving the store with one session secret, and HAProxy
 * round-robin without stickiness in front. The official TS SDK clients work through the balancer (a
 * legacy session spread over the replicas included), a publish reaches every replica, a replica
 * SIGKILLed under load answers nothing wrongly and misses no change, the replicas ride out a
 * database restart (serving, ready, catching up), two publishers racing give one conflict and lose
 * nothing, and a fresh replica lists a store of 10,000 prompts in full.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @TempDir
  static Path dir;

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
    // JUnit makes the folder private; as root, PostgreSQL runs as postgres and must pass through it
    // to its own.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    library = PromptdServer.fixtureCopy(Files.createDirectories(dir.resolve("lib")));
    port = Peers.freePort();
    basePort = 20_000 + (int) (ProcessHandle.current().pid() % 20_000);
    env = new HashMap<>(Map.of(
        "PROMPTD_CLUSTER_DIR",
        dir.resolve("state").toString(),
        "PROMPTD_CLUSTER_PORT",
        String.valueOf(port),
        "PROMPTD_CLUSTER_PG_PORT",
        String.valueOf(Peers.freePort()),
        "PROMPTD_CLUSTER_BASE_PORT",
        String.valueOf(basePort)));
    String out = cluster("up", library.toString());
    assertThat(out).contains("up: http://127.0.0.1:" + port + "/mcp");
    storeUrl = "postgresql://promptd:"
        + Files.readString(dir.resolve("state/db.password")).strip() + "@127.0.0.1:"
        + env.get("PROMPTD_CLUSTER_PG_PORT") + "/promptd";
    // It says how to publish into its store, as a line a POSIX shell runs as it is (the password
    // read from its file).
    String publish = "cluster: to publish: " + Peers.ROOT.resolve("promptd") + " publish " + library
        + " --store \"postgresql://promptd:$(cat " + dir.resolve("state/db.password")
        + ")@127.0.0.1:"
        + env.get("PROMPTD_CLUSTER_PG_PORT") + "/promptd\"";
    assertThat(out.lines()).contains(publish);
    // Run as printed (with --dry-run): a wrong URL or password would fail it.
    ServerCellsTest.run(
        List.of("sh", "-c", publish.substring("cluster: to publish: ".length()) + " --dry-run"),
        Peers.ROOT);
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
      String publish =
          "printf -- '---\\ndescription: added\\n---\\nHi\\n' > '" + edited + "' && PROMPTD_STORE='"
              + storeUrl + "' '" + Peers.ROOT.resolve("promptd") + "' publish '" + library + "'";
      String report = ServerCellsTest.run(
          List.of(
              "node",
              "ts-client.mjs",
              "--sdk",
              sdk,
              "--url",
              mcp(port).toString(),
              "--get",
              "test_prompt_with_arguments",
              "--arg",
              "arg1=testValue1",
              "--arg",
              "arg2=testValue2",
              "--expect",
              "testValue1",
              "--min-pages",
              "1",
              "--edit-cmd",
              publish),
          Peers.INTEROP);
      assertThat(report).as(sdk).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
      Matrix.record(
          "TS SDK " + sdk + " client → HAProxy → 3 promptd replicas (store)",
          "http",
          sdk.equals("v1") ? "legacy (session spread over replicas)" : "modern 2026-07-28",
          "list, get, -32602, list_changed after a publish");
    }
    // The legacy session above was spread over the replicas (round robin; a replica HAProxy held
    // down for a moment may have had none): at least two access logs name legacy requests.
    int serving = 0;
    for (int i = 1; i <= 3; i++) {
      if (Files.readString(dir.resolve("state/replica-" + i + ".access.jsonl"))
          .contains("\"era\":\"legacy\"")) {
        serving++;
      }
    }
    assertThat(serving).as("replicas that served the legacy session").isGreaterThanOrEqualTo(2);
  }

  /**
   * bin/cluster serves the web catalog: a real browser lists the library and follows it live
   * through HAProxy.
   */
  @Test
  @Order(1)
  void theCatalogWorksThroughTheBalancer() throws Exception {
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
    String report = ServerCellsTest.run(
        List.of(
            "node",
            "catalog-browser.mjs",
            "--url",
            "http://127.0.0.1:" + port + "/",
            "--library",
            library.toString(),
            "--list-only"),
        Peers.INTEROP);
    assertThat(report)
        .contains("\"ok\":true", "\"every prompt listed\":\"ok\"", "\"live stream\":\"ok\"");
    Matrix.record(
        "Chromium (headless, system) → HAProxy → 3 promptd replicas (store), web catalog",
        "http",
        "modern 2026-07-28",
        "every prompt listed, live stream acknowledged, same origin only");
  }

  @Test
  @Order(2)
  void aPublishReachesEveryReplica() throws Exception {
    List<BlockingQueue<String>> streams = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      streams.add(listen(mcp(basePort + i)));
    }
    Files.writeString(
        library.resolve("reaches_every_replica.prompt.md"), "---\ndescription: new\n---\nHi\n");
    ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "publish",
            library.toString(),
            "--store",
            storeUrl),
        Peers.ROOT);
    for (int i = 0; i < 3; i++) {
      String event = streams.get(i).poll(30, TimeUnit.SECONDS);
      assertThat(event)
          .as("replica " + (i + 1) + " told its client")
          .isNotNull()
          .contains("list_changed");
    }
  }

  @Test
  @Order(3)
  void killingAReplicaUnderLoadAnswersNothingWrongAndMissesNoChange() throws Exception {
    // Four clients loop through the balancer, each request with its own argument value, so that an
    // answer given to the wrong request or twice would show. A request in flight on the replica at
    // the instant it dies gets HAProxy's 502 (a POST is never resent); the client sends it again,
    // as a client would. Nothing else may fail.
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger resent = new AtomicInteger();
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      int client = c;
      clients.add(Thread.ofVirtual().start(() -> {
        for (int n = 0; !stop.get(); n++) {
          int id = client * 1_000_000 + n;
          String value = "client" + client + "-request" + n;
          for (int attempt = 0; ; attempt++) {
            try {
              HttpResponse<String> r = modern(
                  mcp(port),
                  id,
                  "prompts/get",
                  "{\"name\":\"test_prompt_with_arguments\"," + "\"arguments\":{\"arg1\":\"" + value
                      + "\",\"arg2\":\"x\"}}");
              if (r.statusCode() == 502 && attempt < 3) {
                resent.incrementAndGet();
                continue;
              }
              if (r.statusCode() != 200
                  || !r.body().contains("\"id\":" + id + ",")
                  || !r.body().contains(value)
                  || r.body().indexOf("\"id\":") != r.body().lastIndexOf("\"id\":")) {
                wrong.add(id + ": HTTP " + r.statusCode() + " " + r.body());
              }
              answered.incrementAndGet();
            } catch (IOException e) {
              if (attempt < 3) {
                resent.incrementAndGet();
                continue;
              }
              wrong.add(id + ": " + e);
            } catch (InterruptedException e) {
              return;
            }
            break;
          }
        }
      }));
    }
    awaitCount(answered, 40);
    ProcessHandle replica = ProcessHandle.of(pid(2)).orElseThrow();
    replica.destroyForcibly();
    replica.onExit().get(30, TimeUnit.SECONDS);
    int atKill = answered.get();
    Files.writeString(
        library.resolve("published_after_a_kill.prompt.md"), "---\ndescription: new\n---\nHi\n");
    publish();
    awaitCount(answered, atKill + 80);
    stop.set(true);
    for (Thread t : clients) {
      t.join(Duration.ofSeconds(30));
    }
    assertThat(wrong)
        .as("requests answered wrongly (%d answered, %d resent)", answered.get(), resent.get())
        .isEmpty();
    assertThat(resent.get())
        .as("requests resent after a 502 or a broken connection")
        .isLessThanOrEqualTo(8);
    // No change missed: the replicas left serve the publish, and the killed one, started again,
    // loads it.
    for (int i : List.of(1, 3)) {
      awaitListed(mcp(basePort + i), "published_after_a_kill");
    }
    cluster("up", library.toString());
    awaitListed(mcp(basePort + 2), "published_after_a_kill");
  }

  @Test
  @Order(4)
  void theReplicasRideOutADatabaseRestart() throws Exception {
    cluster("db", "stop");
    try {
      for (int i = 1; i <= 3; i++) {
        HttpResponse<String> ready = HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (basePort + i) + "/readyz"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode())
            .as("replica " + i + " ready without its database")
            .isEqualTo(200);
      }
      for (int i = 0; i < 6; i++) {
        HttpResponse<String> r = modern(mcp(port), 100 + i, "prompts/list", "{}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("published_after_a_kill");
      }
      Files.writeString(
          library.resolve("published_after_the_outage.prompt.md"),
          "---\ndescription: x\n---\nHi\n");
      ProcessBuilder pb = new ProcessBuilder(
              Peers.ROOT.resolve("promptd").toString(),
              "publish",
              library.toString(),
              "--store",
              storeUrl)
          .redirectErrorStream(true);
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("publish while the database is down: " + out).isNotZero();
      assertThat(out)
          .doesNotContain(storeUrl.substring(storeUrl.indexOf(':', 14) + 1, storeUrl.indexOf('@')));
    } finally {
      cluster("db", "start");
    }
    // Committed the moment the database is back, likely before the replicas' listeners reconnected:
    // they catch up by version when they do, and every client stream hears of it.
    List<BlockingQueue<String>> streams = new ArrayList<>();
    publish();
    for (int i = 1; i <= 3; i++) {
      awaitListed(mcp(basePort + i), "published_after_the_outage");
    }
    for (int i = 1; i <= 3; i++) {
      streams.add(listen(mcp(basePort + i)));
    }
    Files.writeString(
        library.resolve("published_after_reconnecting.prompt.md"),
        "---\ndescription: x\n---\nHi\n");
    publish();
    for (int i = 0; i < 3; i++) {
      assertThat(streams.get(i).poll(60, TimeUnit.SECONDS))
          .as("replica " + (i + 1) + " after the restart")
          .isNotNull()
          .contains("list_changed");
    }
  }

  @Test
  @Order(5)
  void twoPublishersAtOnceGiveOneConflictAndLoseNothing() throws Exception {
    Path a = copyTree(library, dir.resolve("publisher-a"));
    Path b = copyTree(library, dir.resolve("publisher-b"));
    Files.writeString(
        a.resolve("contested.prompt.md"), "---\ndescription: from a\n---\nA wrote this\n");
    Files.writeString(
        b.resolve("contested.prompt.md"), "---\ndescription: from b\n---\nB wrote this\n");
    String jdbc = "jdbc:postgresql://127.0.0.1:" + env.get("PROMPTD_CLUSTER_PG_PORT") + "/promptd";
    String password = Files.readString(dir.resolve("state/db.password")).strip();
    List<Process> publishers = new ArrayList<>();
    // pg_stat_activity is read on a second connection: inside the lock's transaction it would be a
    // frozen snapshot.
    try (Connection lock = DriverManager.getConnection(jdbc, "promptd", password);
        Connection watch = DriverManager.getConnection(jdbc, "promptd", password)) {
      // Both publishes read the same library version, then queue behind this lock on the version
      // row: when it is released, the first commits and the second finds the version moved.
      lock.setAutoCommit(false);
      lock.createStatement().execute("SELECT library_version FROM store FOR UPDATE");
      for (Path folder : List.of(a, b)) {
        publishers.add(new ProcessBuilder(
                Peers.ROOT.resolve("promptd").toString(),
                "publish",
                folder.toString(),
                "--store",
                storeUrl,
                "--author",
                folder.getFileName().toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(folder.getFileName() + ".out").toFile())
            .start());
      }
      Poll.until(
          Duration.ofSeconds(90),
          Duration.ofMillis(50),
          () -> "both publishes waiting on the lock: " + activityOrWhy(watch),
          () -> {
            assertThat(publishers).allMatch(Process::isAlive);
            return waitingOnLocks(watch) >= 2;
          });
      lock.rollback();
    }
    List<String> outs = new ArrayList<>();
    List<Integer> codes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Process p = publishers.get(i);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      outs.add(Files.readString(dir.resolve((i == 0 ? a : b).getFileName() + ".out")));
      codes.add(p.exitValue());
    }
    assertThat(codes).as(String.join("\n", outs)).containsExactlyInAnyOrder(0, 7);
    int loser = codes.indexOf(7);
    assertThat(outs.get(loser))
        .contains("another publish changed the store")
        .contains("run it again")
        .doesNotContain(password);
    String winner = loser == 0 ? "B wrote this" : "A wrote this";
    awaitGot(mcp(port), "contested", winner);
    // The loser runs again and wins: nothing it meant to publish is lost.
    Path again = loser == 0 ? a : b;
    ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "publish",
            again.toString(),
            "--store",
            storeUrl,
            "--author",
            again.getFileName().toString()),
        Peers.ROOT);
    awaitGot(mcp(port), "contested", loser == 0 ? "A wrote this" : "B wrote this");
    String history = ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(), "history", "contested", "--store", storeUrl),
        Peers.ROOT);
    assertThat(history).contains("publisher-a").contains("publisher-b");
    ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "publish",
            library.toString(),
            "--store",
            storeUrl),
        Peers.ROOT);
  }

  @Test
  @Order(6)
  void aFreshReplicaListsTenThousandPrompts() throws Exception {
    Path big = Files.createDirectories(dir.resolve("ten-thousand"));
    for (int i = 0; i < 10_000; i++) {
      Files.writeString(
          big.resolve(String.format("p%05d.prompt.md", i)),
          "---\ndescription: prompt " + i + "\n---\nText " + i + "\n");
    }
    ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "publish",
            big.toString(),
            "--store",
            storeUrl),
        Peers.ROOT);
    int fresh = Peers.freePort();
    Process replica = Peers.startHttp(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "serve",
            "--http",
            String.valueOf(fresh),
            "--store",
            storeUrl),
        fresh);
    try {
      awaitReady(fresh);
      Set<String> names = new HashSet<>();
      String cursor = null;
      int pages = 0;
      do {
        HttpResponse<String> r = modern(
            mcp(fresh),
            1_000 + pages,
            "prompts/list",
            cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Matcher m = Pattern.compile("\"name\":\"(p\\d{5})\"").matcher(r.body());
        while (m.find()) {
          names.add(m.group(1));
        }
        Matcher next = Pattern.compile("\"nextCursor\":\"([^\"]+)\"").matcher(r.body());
        cursor = next.find() ? next.group(1) : null;
        pages++;
      } while (cursor != null && pages < 1_000);
      assertThat(names).as("names over %d pages", pages).hasSize(10_000);
    } finally {
      replica.destroy();
      replica.onExit().get(30, TimeUnit.SECONDS);
      ServerCellsTest.run(
          List.of(
              Peers.ROOT.resolve("promptd").toString(),
              "publish",
              library.toString(),
              "--store",
              storeUrl),
          Peers.ROOT);
    }
  }

  private static long pid(int replica) throws IOException {
    return Long.parseLong(
        Files.readString(dir.resolve("state/replica-" + replica + ".pid")).strip());
  }

  private static void publish() throws Exception {
    ServerCellsTest.run(
        List.of(
            Peers.ROOT.resolve("promptd").toString(),
            "publish",
            library.toString(),
            "--store",
            storeUrl),
        Peers.ROOT);
  }

  private static Path copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }

  private static void awaitReady(int replicaPort) throws Exception {
    Poll.ok(URI.create("http://127.0.0.1:" + replicaPort + "/readyz"), Duration.ofSeconds(60));
  }

  /** The database's activity for a failure message, or why it could not be read. */
  private static String activityOrWhy(Connection c) {
    try {
      return activity(c);
    } catch (SQLException e) {
      return "(pg_stat_activity unreadable: " + e.getMessage() + ")";
    }
  }

  private static String activity(Connection c) throws SQLException {
    StringBuilder out = new StringBuilder();
    try (var r = c.createStatement()
        .executeQuery("SELECT pid, state, wait_event_type, wait_event, left(query, 80)"
            + " FROM pg_stat_activity WHERE datname = 'promptd'")) {
      while (r.next()) {
        out.append('\n')
            .append(r.getInt(1))
            .append(' ')
            .append(r.getString(2))
            .append(' ')
            .append(r.getString(3))
            .append(' ')
            .append(r.getString(4))
            .append(' ')
            .append(r.getString(5));
      }
    }
    return out.toString();
  }

  private static int waitingOnLocks(Connection c) throws SQLException {
    try (var r = c.createStatement()
        .executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            + " AND datname = 'promptd'")) {
      r.next();
      return r.getInt(1);
    }
  }

  private static void awaitCount(AtomicInteger count, int atLeast) throws Exception {
    Poll.until(
        Duration.ofSeconds(120),
        Duration.ofMillis(20),
        () -> atLeast + " answers (" + count.get() + " so far)",
        () -> count.get() >= atLeast);
  }

  /** Waits until {@code replica}'s prompts/list names {@code name} (a publish reached it). */
  private static void awaitListed(URI replica, String name) throws Exception {
    Poll.until(
        Duration.ofSeconds(60), Duration.ofMillis(100), () -> replica + " lists " + name, () -> {
          HttpResponse<String> r = modern(replica, 7, "prompts/list", "{}");
          return r.statusCode() == 200 && r.body().contains("\"" + name + "\"");
        });
  }

  /** Waits until {@code prompts/get NAME} through {@code uri} renders {@code text}. */
  private static void awaitGot(URI uri, String name, String text) throws Exception {
    Poll.until(
        Duration.ofSeconds(60),
        Duration.ofMillis(100),
        () -> name + " renders " + text + " via " + uri,
        () -> {
          HttpResponse<String> r = modern(uri, 8, "prompts/get", "{\"name\":\"" + name + "\"}");
          return r.statusCode() == 200 && r.body().contains(text);
        });
  }

  private static URI mcp(int p) {
    return URI.create("http://127.0.0.1:" + p + "/mcp");
  }

  private static String cluster(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(Peers.ROOT.resolve("bin/cluster").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(Peers.ROOT.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("bin/cluster " + args[0]).isTrue();
    assertThat(p.exitValue()).as("bin/cluster " + args[0] + ": " + out).isZero();
    return out;
  }

  private static HttpResponse<String> modern(URI uri, int id, String method, String params)
      throws IOException, InterruptedException {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    String p = params.equals("{}")
        ? "{" + meta + "}"
        : params.substring(0, params.length() - 1) + "," + meta + "}";
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method);
    if (method.equals("prompts/get")) {
      b.header("Mcp-Name", promptName(params));
    }
    return HTTP.send(
        b.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"" + method + "\",\"params\":" + p + "}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String promptName(String params) {
    Matcher m = Pattern.compile("\"name\":\"([^\"]+)\"").matcher(params);
    assertThat(m.find()).as("a name in " + params).isTrue();
    return m.group(1);
  }

  /** A 2026-07-28 listen stream on one replica; its SSE data lines after the acknowledgement. */
  private static BlockingQueue<String> listen(URI replica) throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    HttpResponse<InputStream> r = HTTP.send(
        HttpRequest.newBuilder(replica)
            .timeout(Duration.ofSeconds(120))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "subscriptions/listen")
            .POST(HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\","
                    + "\"params\":{\"notifications\":{\"promptsListChanged\":true}," + meta + "}}"))
            .build(),
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
