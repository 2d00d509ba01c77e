package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.json;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.internal.session.EventLog;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.LogMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The legacy era over HTTP: sessions, the GET stream, resumption, DELETE, batches, resources
 * subscriptions.
 */
class LegacyHttpTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final ConformanceFixtures.Resources RESOURCES =
      new ConformanceFixtures.Resources();
  private static McpServer server;
  private static HttpTransport http;
  private static TestClient client;

  @BeforeAll
  static void start() throws Exception {
    server = McpServer.builder()
        .prompts(ConformanceFixtures.prompts())
        .resources(RESOURCES)
        .changeCoalescing(Duration.ofMillis(1))
        .build();
    http = HttpTransport.builder()
        .server(server)
        .keepAliveInterval(Duration.ofMillis(200))
        .build()
        .start();
    client = new TestClient(http.uri());
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
  }

  @Test
  void initializeIssuesDistinctUnguessableSessionIds() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      ids.add(client.initialize("2025-11-25"));
    }
    assertThat(ids).hasSize(20).allSatisfy(id -> assertThat(id).matches("[A-Za-z0-9_-]{43}"));
  }

  @Test
  void initializeAnswersWithJsonAndTheNegotiatedVersion() {
    HttpResponse<String> r = client.post(
        request(
            1,
            "initialize",
            "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonObject result = json(r).object("result").orElseThrow();
    assertThat(result.string("protocolVersion")).hasValue("2025-06-18");
    assertThat(TestClient.text(result.object("capabilities").orElseThrow()))
        .contains("\"resources\":{\"subscribe\":true,\"listChanged\":true}");
  }

  @Test
  void failedInitializeIssuesNoSession() {
    HttpResponse<String> r = client.post(request(1, "initialize", "{}"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(TestClient.errorCode(r)).isEqualTo(-32602);
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
  }

  @Test
  void requestsWithoutSessionGet400AndUnknownSessionsGet404() {
    assertThat(client.post(request(2, "prompts/list", "{}")).statusCode()).isEqualTo(400);
    HttpResponse<String> unknown =
        client.post(request(2, "prompts/list", "{}"), "Mcp-Session-Id", "nope");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(json(unknown).has("id"))
        .isFalse(); // an error that answers no readable request carries no id
    assertThat(client.get("Accept", "text/event-stream").statusCode()).isEqualTo(400);
    assertThat(
            client.get("Accept", "text/event-stream", "Mcp-Session-Id", "nope").statusCode())
        .isEqualTo(404);
  }

  @Test
  void sessionRequestsAreServedAndNotificationsGet202() {
    String sid = client.initialize("2025-11-25");
    HttpResponse<String> r = client.post(
        request(2, "prompts/get", "{\"name\":\"test_simple_prompt\"}"),
        "Mcp-Session-Id",
        sid,
        "MCP-Protocol-Version",
        "2025-11-25");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(json(r).object("result").orElseThrow().array("messages")).isPresent();
    assertThat(client
            .post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9}}",
                "Mcp-Session-Id",
                sid)
            .statusCode())
        .isEqualTo(202);
    assertThat(client
            .post("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", "Mcp-Session-Id", sid)
            .statusCode())
        .isEqualTo(202);
  }

  @Test
  void unsupportedProtocolVersionHeaderGets400() {
    String sid = client.initialize("2025-11-25");
    assertThat(client
            .post(
                request(2, "ping", "{}"),
                "Mcp-Session-Id",
                sid,
                "MCP-Protocol-Version",
                "1999-01-01")
            .statusCode())
        .isEqualTo(400);
    // An older legacy version than negotiated is tolerated: the conformance suite sends 2025-03-26
    // this way.
    assertThat(client
            .post(
                request(2, "ping", "{}"),
                "Mcp-Session-Id",
                sid,
                "MCP-Protocol-Version",
                "2025-03-26")
            .statusCode())
        .isEqualTo(200);
  }

  @Test
  void deleteEndsTheSession() {
    String sid = client.initialize("2025-11-25");
    assertThat(client.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(204);
    assertThat(client.post(request(2, "ping", "{}"), "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(404);
    assertThat(client.delete("Mcp-Session-Id", sid).statusCode()).isEqualTo(404);
    assertThat(client.delete().statusCode()).isEqualTo(400);
  }

  @Test
  void batchesAreServedOnlyIn20250326() {
    String old = client.initialize("2025-03-26");
    HttpResponse<String> r = client.post(
        "[" + request(2, "ping", "{}") + ","
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
            + request(3, "prompts/list", "{}") + "]",
        "Mcp-Session-Id",
        old);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .startsWith("[{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":3,");
    assertThat(client
            .post(
                "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]",
                "Mcp-Session-Id",
                old)
            .statusCode())
        .isEqualTo(202);
    String newer = client.initialize("2025-06-18");
    HttpResponse<String> refused =
        client.post("[" + request(2, "ping", "{}") + "]", "Mcp-Session-Id", newer);
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(TestClient.errorCode(refused)).isEqualTo(-32600);
  }

  @Test
  void getStreamCarriesListChangedWithEventIds() throws Exception {
    String sid = client.initialize("2025-11-25");
    HttpResponse<InputStream> stream = client.getStream("Mcp-Session-Id", sid);
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    try (TestClient.Events events = new TestClient.Events(stream.body())) {
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of("legacy-added", "added", List.of()),
              args -> List.of(PromptMessage.user("hi"))));
      TestClient.Events.Event e = events.next(WAIT);
      Schemas.assertValid("2025-11-25", "PromptListChangedNotification", e.data());
      assertThat(e.data())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
      assertThat(e.id()).matches("\\d+");
    }
  }

  @Test
  void whatStandsReachesASessionsGetStreamBeforeItsFirstListingIsAnswered() throws Exception {
    LogMessage standing = new LogMessage(
        LoggingLevel.ERROR,
        "promptd.library",
        Json.of("haiku.prompt.md:3: error: {{subjet}} is not a declared argument"));
    try (McpServer s = McpServer.builder()
            .prompts(ConformanceFixtures.prompts())
            .standingLog(() -> List.of(standing))
            .build();
        HttpTransport h = HttpTransport.builder().server(s).build().start()) {
      TestClient c = new TestClient(h.uri());
      String sid = c.initialize("2025-11-25");
      HttpResponse<InputStream> stream = c.getStream("Mcp-Session-Id", sid);
      assertThat(stream.statusCode()).isEqualTo(200);
      try (TestClient.Events events = new TestClient.Events(stream.body())) {
        HttpResponse<String> listed =
            c.post(request(2, "prompts/list", "{}"), "Mcp-Session-Id", sid);
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(json(listed).get("result").toString()).contains("prompts");
        TestClient.Events.Event e = events.next(WAIT);
        Schemas.assertValid("2025-11-25", "LoggingMessageNotification", e.data());
        assertThat(e.data())
            .contains("\"method\":\"notifications/message\"")
            .contains("\"level\":\"error\"")
            .contains("haiku.prompt.md:3: error:");
        assertThat(
                c.post(request(3, "prompts/list", "{}"), "Mcp-Session-Id", sid).statusCode())
            .isEqualTo(200);
        s.log(LoggingLevel.ERROR, "test", Json.of("marker"));
        assertThat(events.next(WAIT).data()).as("told once per session").contains("marker");
      }
    }
  }

  /**
   * Transports (2025-03-26 and later): the server "MUST either return Content-Type:
   * text/event-stream in response to this HTTP GET, or else return HTTP 405", and "the client MAY
   * remain connected to multiple SSE streams simultaneously", each message going to only one of
   * them. A client reconnecting without Last-Event-ID while its old socket is half-dead is not
   * locked out; the oldest of too many streams is ended.
   */
  @Test
  void aSecondGetStreamIsServedAndEachMessageGoesToOneStream() throws Exception {
    String sid = client.initialize("2025-11-25");
    HttpResponse<InputStream> first = client.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events one = new TestClient.Events(first.body())) {
      one.nextAny(WAIT); // the priming event: the stream is attached
      HttpResponse<InputStream> second = client.getStream("Mcp-Session-Id", sid);
      assertThat(second.statusCode()).isEqualTo(200);
      assertThat(second.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      List<TestClient.Events> more = new ArrayList<>();
      try (TestClient.Events two = new TestClient.Events(second.body())) {
        two.nextAny(WAIT);
        server
            .prompts()
            .put(PromptDefinition.of(
                Prompt.of("two-streams", "added", List.of()),
                args -> List.of(PromptMessage.user("hi"))));
        assertThat(two.next(WAIT).data()).contains("notifications/prompts/list_changed");
        for (int i = 2;
            i < EventLog.MAX_CONNECTIONS + 1;
            i++) { // the last of these pushes the first stream out
          TestClient.Events e =
              new TestClient.Events(client.getStream("Mcp-Session-Id", sid).body());
          more.add(e);
          e.nextAny(WAIT);
        }
        List<TestClient.Events.Event> seenByFirst = one.eventsUntilEnd(WAIT);
        assertThat(seenByFirst)
            .as("the message went to the newest stream only")
            .allMatch(e -> e.data().isBlank());
      } finally {
        for (TestClient.Events e : more) {
          e.close();
        }
      }
    }
  }

  /**
   * The priming event (an id, empty data) is defined by 2025-11-25 only; earlier clients get none.
   */
  @Test
  void onlyA20251125StreamOpensWithAPrimingEvent() throws Exception {
    for (String version : List.of("2025-03-26", "2025-06-18", "2025-11-25")) {
      String sid = client.initialize(version);
      try (TestClient.Events events =
          new TestClient.Events(client.getStream("Mcp-Session-Id", sid).body())) {
        if (version.equals("2025-11-25")) {
          TestClient.Events.Event priming = events.nextAny(WAIT);
          assertThat(priming.data()).isEmpty();
          assertThat(priming.id()).matches("\\d+");
        }
        server
            .prompts()
            .put(PromptDefinition.of(
                Prompt.of("primed-" + version, "added", List.of()),
                args -> List.of(PromptMessage.user("hi"))));
        TestClient.Events.Event first = events.nextAny(WAIT);
        assertThat(first.data()).as(version).contains("notifications/prompts/list_changed");
      }
    }
  }

  @Test
  void getWithoutEventStreamAcceptGets406() {
    String sid = client.initialize("2025-11-25");
    assertThat(client.get("Accept", "application/json", "Mcp-Session-Id", sid).statusCode())
        .isEqualTo(406);
  }

  @Test
  void lastEventIdReplaysWhatTheDroppedStreamMissed() throws Exception {
    String sid = client.initialize("2025-11-25");
    subscribe(sid, "test://watched-resource");
    String lastSeen;
    HttpResponse<InputStream> first = client.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events events = new TestClient.Events(first.body())) {
      RESOURCES.touch("test://watched-resource");
      lastSeen = events.next(WAIT).id();
    }
    // Sent after the client dropped the stream: lost on the wire or never written, but kept in the
    // log.
    RESOURCES.touch("test://watched-resource");
    HttpResponse<InputStream> resumed =
        client.getStream("Mcp-Session-Id", sid, "Last-Event-ID", lastSeen);
    try (TestClient.Events events = new TestClient.Events(resumed.body())) {
      TestClient.Events.Event replayed = events.next(WAIT);
      Schemas.assertValid("2025-11-25", "ResourceUpdatedNotification", replayed.data());
      assertThat(Long.parseLong(replayed.id())).isEqualTo(Long.parseLong(lastSeen) + 1);
      assertThat(replayed.data())
          .contains("notifications/resources/updated")
          .contains("test://watched-resource");
    }
  }

  @Test
  void unsubscribedResourcesAreNotAnnounced() throws Exception {
    String sid = client.initialize("2025-11-25");
    subscribe(sid, "test://watched-resource");
    assertThat(client
            .post(
                request(5, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}"),
                "Mcp-Session-Id",
                sid)
            .body())
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}");
    subscribe(sid, "test://static-text");
    HttpResponse<InputStream> stream = client.getStream("Mcp-Session-Id", sid);
    try (TestClient.Events events = new TestClient.Events(stream.body())) {
      RESOURCES.touch("test://watched-resource");
      RESOURCES.touch("test://static-text");
      assertThat(events.next(WAIT).data()).contains("test://static-text");
    }
  }

  @Test
  void resourcesAreListedReadAndMissingOnesAre32002() {
    String sid = client.initialize("2025-11-25");
    JsonObject list = json(client.post(request(2, "resources/list", "{}"), "Mcp-Session-Id", sid));
    assertThat(
            list.object("result").orElseThrow().array("resources").orElseThrow().size())
        .isEqualTo(3);
    JsonObject templates =
        json(client.post(request(3, "resources/templates/list", "{}"), "Mcp-Session-Id", sid));
    assertThat(TestClient.text(templates)).contains("test://template/{id}/data");
    assertThat(client
            .post(
                request(4, "resources/read", "{\"uri\":\"test://template/42/data\"}"),
                "Mcp-Session-Id",
                sid)
            .body())
        .contains("{\\\"id\\\":\\\"42\\\"}");
    HttpResponse<String> missing = client.post(
        request(5, "resources/read", "{\"uri\":\"test://missing\"}"), "Mcp-Session-Id", sid);
    assertThat(missing.statusCode()).isEqualTo(200);
    assertThat(missing.body())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32002,"
                + "\"message\":\"Resource not found: test://missing\",\"data\":{\"uri\":\"test://missing\"}}}");
  }

  private static void subscribe(String sid, String uri) {
    assertThat(client
            .post(
                request(4, "resources/subscribe", "{\"uri\":\"" + uri + "\"}"),
                "Mcp-Session-Id",
                sid)
            .body())
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
  }
}
