package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.json;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two replicas (two servers over the same catalog and resources, two transports with the same
 * session secret and one shared session store, standing in for PostgreSQL) behind a "balancer" that
 * sends each request to the other one: a legacy session behaves as with one process.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedSessionsTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final ConformanceFixtures.Resources RESOURCES =
      new ConformanceFixtures.Resources();
  private static final PromptCatalog CATALOG = ConformanceFixtures.prompts();
  private static final SessionStore STORE = SessionStore.inMemory();
  private static McpServer serverA;
  private static McpServer serverB;
  private static HttpTransport httpA;
  private static HttpTransport httpB;
  private static TestClient a;
  private static TestClient b;

  @BeforeAll
  static void start() throws Exception {
    serverA = server();
    serverB = server();
    httpA = replica(serverA, SECRET, STORE);
    httpB = replica(serverB, SECRET, STORE);
    a = new TestClient(httpA.uri());
    b = new TestClient(httpB.uri());
  }

  private static McpServer server() {
    return McpServer.builder()
        .prompts(CATALOG)
        .resources(RESOURCES)
        .changeCoalescing(Duration.ofMillis(1))
        .pageSize(1)
        .cursorSecret(SECRET)
        .build();
  }

  private static HttpTransport replica(McpServer server, byte[] secret, SessionStore store)
      throws Exception {
    return HttpTransport.builder()
        .server(server)
        .keepAliveInterval(Duration.ofMillis(200))
        .sessionSecret(secret)
        .sessionStore(store)
        .build()
        .start();
  }

  @AfterAll
  static void stop() {
    httpA.close();
    httpB.close();
    serverA.close();
    serverB.close();
  }

  @Test
  void aSessionOpenedOnOneReplicaIsServedByTheOther() {
    String sid = a.initialize("2025-06-18");
    assertThat(sid.length()).isLessThan(1024);
    HttpResponse<String> list = b.post(request(2, "prompts/list", "{}"), "Mcp-Session-Id", sid);
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains("\"prompts\":[{\"name\":");
    assertThat(a.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).body())
        .contains("\"result\":{}");
    // The version initialize negotiated holds on the other replica: a batch is refused in
    // 2025-06-18.
    HttpResponse<String> batch =
        b.post("[" + request(4, "ping", "{}") + "]", "Mcp-Session-Id", sid);
    assertThat(batch.body()).contains("-32600").contains("2025-06-18");
    // initialize was answered once, by A: the session is initialized on B too.
    assertThat(TestClient.errorCode(b.post(
            request(5, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}"),
            "Mcp-Session-Id",
            sid)))
        .isEqualTo(-32600);
  }

  @Test
  void aListCursorFromOneReplicaPagesOnTheOther() {
    String sid = a.initialize("2025-11-25");
    String cursor = json(a.post(request(2, "prompts/list", "{}"), "Mcp-Session-Id", sid))
        .object("result")
        .orElseThrow()
        .string("nextCursor")
        .orElseThrow();
    HttpResponse<String> next = b.post(
        request(3, "prompts/list", "{\"cursor\":\"" + cursor + "\"}"), "Mcp-Session-Id", sid);
    assertThat(json(next).has("result")).as(next.body()).isTrue();
  }

  @Test
  void aLogLevelSetOnOneReplicaHoldsOnTheOther() throws Exception {
    String sid = a.initialize("2025-11-25");
    HttpResponse<InputStream> stream = b.getStream("Mcp-Session-Id", sid);
    assertThat(stream.statusCode()).isEqualTo(200);
    try (TestClient.Events events = new TestClient.Events(stream.body())) {
      assertThat(
              a.post(request(2, "logging/setLevel", "{\"level\":\"error\"}"), "Mcp-Session-Id", sid)
                  .statusCode())
          .isEqualTo(200);
      serverB.log(LoggingLevel.WARNING, "test", new JsonString("below the level set on A"));
      serverB.log(LoggingLevel.ERROR, "test", new JsonString("at the level set on A"));
      String data = events.next(WAIT).data();
      assertThat(data).contains("notifications/message").contains("at the level set on A");
    }
  }

  @Test
  void aSubscriptionMadeOnOneReplicaIsServedByTheOther() throws Exception {
    String sid = a.initialize("2025-11-25");
    assertThat(b.post(
                request(2, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}"),
                "Mcp-Session-Id",
                sid)
            .statusCode())
        .isEqualTo(200);
    HttpResponse<InputStream> stream = a.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events events = new TestClient.Events(stream.body())) {
      RESOURCES.touch("test://watched-resource");
      assertThat(events.next(WAIT).data())
          .contains("notifications/resources/updated")
          .contains("test://watched-resource");
    }
  }

  @Test
  void aSessionDeletedOnOneReplicaIsGoneOnEvery() throws Exception {
    String sid = a.initialize("2025-11-25");
    assertThat(b.post(request(2, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(200);
    HttpResponse<InputStream> stream = b.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events events = new TestClient.Events(stream.body())) {
      assertThat(a.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(204);
      events.awaitEnd(WAIT); // B ends the session's stream when it hears of the DELETE
    }
    assertThat(b.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(404);
    assertThat(a.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(404);
    assertThat(b.get("Accept", "text/event-stream", "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(404);
    assertThat(b.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(404);
  }

  @Test
  void forgedTamperedAndForeignIdsAreUnknown() throws Exception {
    String sid = a.initialize("2025-11-25");
    int dot = sid.indexOf('.');
    String payload =
        new String(Base64.getUrlDecoder().decode(sid.substring(0, dot)), StandardCharsets.UTF_8);
    String altered = Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                payload.replace("2025-11-25", "2025-03-26").getBytes(StandardCharsets.UTF_8))
        + sid.substring(dot);
    char near = sid.charAt(
        sid.length() - 2); // a character of the MAC, not its last (which carries padding bits)
    String flipped = sid.substring(0, sid.length() - 2)
        + (near == 'A' ? 'B' : 'A')
        + sid.charAt(sid.length() - 1);
    try (McpServer other = server();
        HttpTransport elsewhere = replica(
            other,
            "another secret, as long as it is".getBytes(StandardCharsets.UTF_8),
            SessionStore.inMemory())) {
      String foreign = new TestClient(elsewhere.uri()).initialize("2025-11-25");
      for (String id :
          List.of(altered, flipped, foreign, "nope", "a.b", sid + "." + sid, "%%%.$$$")) {
        HttpResponse<String> r = b.post(request(2, "ping", "{}"), "Mcp-Session-Id", id);
        assertThat(r.statusCode()).as(id).isEqualTo(404);
        assertThat(r.body()).doesNotContain("Exception").doesNotContain("at io.");
        assertThat(a.delete("Mcp-Session-Id", id).statusCode()).as(id).isEqualTo(404);
      }
    }
    assertThat(b.post(request(3, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aStreamResumedOnAnotherReplicaLearnsOfAMissedListChange() throws Exception {
    String sid = a.initialize("2025-11-25");
    String lastSeen;
    HttpResponse<InputStream> first = a.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events events = new TestClient.Events(first.body())) {
      CATALOG.put(prompt("resume_one"));
      TestClient.Events.Event e = events.next(WAIT);
      assertThat(e.data()).contains("notifications/prompts/list_changed");
      lastSeen = e.id();
    }
    CATALOG.put(prompt("resume_two")); // while the client is away
    HttpResponse<InputStream> resumed =
        b.getStream("Mcp-Session-Id", sid, "Last-Event-ID", lastSeen);
    assertThat(resumed.statusCode()).isEqualTo(200);
    try (TestClient.Events events = new TestClient.Events(resumed.body())) {
      TestClient.Events.Event e = events.next(WAIT);
      assertThat(e.data())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
      // An event id of B's own log (tag.seq.version), from which the client can resume on B.
      assertThat(e.id())
          .matches("[A-Za-z0-9_-]+\\.\\d+\\.\\d+")
          .doesNotStartWith(lastSeen.substring(0, lastSeen.indexOf('.')));
    }
    HttpResponse<String> got =
        a.post(request(2, "prompts/get", "{\"name\":\"resume_two\"}"), "Mcp-Session-Id", sid);
    assertThat(json(got).has("result")).as(got.body()).isTrue();
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, "added by the test", List.of()), args -> List.of(PromptMessage.user("hi")));
  }
}
