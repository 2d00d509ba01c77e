package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.internal.sse.SseTransportEndpoint;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.testing.Poll;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The 2024-11-05 HTTP+SSE transport against a real server on port 0: stream, endpoint event, POSTs,
 * refusals.
 */
@Timeout(60)
class SseTransportTest {
  private static final String V2024 = "2024-11-05";
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private static final List<RequestEvent> EVENTS = new CopyOnWriteArrayList<>();
  private static PromptCatalog catalog;
  private static ConformanceFixtures.Resources resources;
  private static McpServer server;
  private static HttpTransport http;

  @BeforeAll
  static void start() throws Exception {
    catalog = ConformanceFixtures.prompts();
    resources = new ConformanceFixtures.Resources();
    server = McpServer.builder().prompts(catalog).resources(resources).build();
    http = HttpTransport.builder()
        .server(server)
        .limits(HttpLimits.DEFAULTS.withMaxBodyBytes(2048))
        .keepAliveInterval(Duration.ofMillis(100))
        .onRequest(EVENTS::add)
        .build()
        .start();
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
  }

  /** One SSE event, with its name ({@code message} when the stream named none). */
  record Event(String name, String data) {}

  /** A client's {@code /sse} stream, read on a virtual thread. */
  static final class Stream implements AutoCloseable {
    final HttpResponse<InputStream> response;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();

    Stream(HttpResponse<InputStream> response) {
      this.response = response;
      Thread.ofVirtual().start(this::pump);
    }

    Event next() throws InterruptedException {
      Object o = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(o).as("an SSE event within " + WAIT).isInstanceOf(Event.class);
      return (Event) o;
    }

    /** The next message event, checked against the 2024-11-05 schema. */
    JsonObject message() throws InterruptedException {
      Event e = next();
      assertThat(e.name()).isEqualTo("message");
      Schemas.assertValid(V2024, "JSONRPCMessage", e.data());
      return TestClient.json(e.data());
    }

    /** Waits until the server ends the stream. */
    void awaitEnd() throws InterruptedException {
      while (true) {
        Object o = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(o).as("the stream ends within " + WAIT).isNotNull();
        if (!(o instanceof Event)) {
          return;
        }
      }
    }

    private void pump() {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        String name = "message";
        StringBuilder data = new StringBuilder();
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (line.isEmpty()) {
            if (!data.isEmpty()) {
              events.add(new Event(name, data.toString()));
            }
            name = "message";
            data.setLength(0);
          } else if (line.startsWith("event:")) {
            name = line.substring(6).trim();
          } else if (line.startsWith("data:")) {
            data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).trim());
          }
        }
        events.add("END");
      } catch (IOException e) {
        events.add(e);
      }
    }

    @Override
    public void close() throws IOException {
      response.body().close();
    }
  }

  private static URI at(HttpTransport t, String pathAndQuery) {
    return t.uri().resolve(pathAndQuery);
  }

  static Stream open(HttpTransport t, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(at(t, "/sse"))
        .header("Accept", "text/event-stream")
        .GET();
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    HttpResponse<InputStream> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    return new Stream(r);
  }

  static HttpResponse<String> post(URI uri, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.setHeader(headers[i], headers[i + 1]);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Reads the endpoint event, initializes with 2024-11-05, and returns the URL to POST to. */
  static URI initialize(HttpTransport t, Stream s, String... headers) throws Exception {
    Event endpoint = s.next();
    assertThat(endpoint.name()).isEqualTo("endpoint");
    assertThat(endpoint.data()).matches("/messages\\?sessionId=[A-Za-z0-9_-]{43}");
    URI messages = at(t, endpoint.data());
    HttpResponse<String> accepted = post(
        messages,
        request(
            1,
            "initialize",
            "{\"protocolVersion\":\"" + V2024
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"old\",\"version\":\"1\"}}"),
        headers);
    assertThat(accepted.statusCode()).isEqualTo(202);
    assertThat(accepted.body()).isEmpty();
    JsonObject init = s.message();
    Schemas.assertValid(V2024, "InitializeResult", JsonCodec.write(init.get("result")));
    assertThat(init.object("result").orElseThrow().string("protocolVersion")).hasValue(V2024);
    assertThat(post(
                messages, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", headers)
            .statusCode())
        .isEqualTo(202);
    return messages;
  }

  @Test
  void theStreamNamesTheEndpointAndCarriesTheAnswers() throws Exception {
    try (Stream s = open(http)) {
      assertThat(s.response.statusCode()).isEqualTo(200);
      assertThat(s.response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      URI messages = initialize(http, s);
      assertThat(post(messages, request(2, "prompts/list", "{}")).statusCode()).isEqualTo(202);
      JsonObject list = s.message();
      assertThat(list.get("id").toString()).isEqualTo("2");
      Schemas.assertValid(V2024, "ListPromptsResult", JsonCodec.write(list.get("result")));
      assertThat(post(
                  messages,
                  request(
                      3,
                      "prompts/get",
                      "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\",\"arg2\":\"b\"}}"))
              .statusCode())
          .isEqualTo(202);
      assertThat(JsonCodec.write(s.message())).contains("arg1='a', arg2='b'");
      assertThat(
              post(messages, request(4, "prompts/get", "{\"name\":\"nope\"}")).statusCode())
          .isEqualTo(202);
      assertThat(s.message().object("error").orElseThrow().get("code").toString())
          .isEqualTo("-32602");
    }
    // The event is raised once the exchange has ended.
    Poll.until(
        WAIT,
        Duration.ofMillis(10),
        () -> "a prompts/get event",
        () -> EVENTS.stream().anyMatch(e -> "prompts/get".equals(e.method())));
    assertThat(EVENTS).anySatisfy(e -> {
      assertThat(e.transport()).isEqualTo(RequestEvent.Transport.HTTP_SSE);
      assertThat(e.method()).isEqualTo("prompts/get");
      assertThat(e.status()).isEqualTo(202);
    });
  }

  @Test
  void logsUpdatesAndListChangesFlowOnTheStream() throws Exception {
    try (Stream s = open(http)) {
      URI messages = initialize(http, s);
      assertThat(post(messages, request(2, "logging/setLevel", "{\"level\":\"debug\"}"))
              .statusCode())
          .isEqualTo(202);
      assertThat(s.message().has("result")).isTrue();
      server.log(LoggingLevel.INFO, "sse-test", new JsonString("hello over SSE"));
      JsonObject log = s.message();
      assertThat(log.string("method")).hasValue("notifications/message");
      assertThat(JsonCodec.write(log)).contains("hello over SSE");

      assertThat(post(
                  messages,
                  request(3, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}"))
              .statusCode())
          .isEqualTo(202);
      assertThat(s.message().has("result")).isTrue();
      resources.touch("test://watched-resource");
      JsonObject updated = s.message();
      assertThat(updated.string("method")).hasValue("notifications/resources/updated");

      catalog.put(PromptDefinition.of(
          Prompt.of("added_" + System.nanoTime(), "new", List.of()),
          args -> List.of(PromptMessage.user("hi"))));
      JsonObject changed = s.message();
      assertThat(changed.string("method")).hasValue("notifications/prompts/list_changed");
    }
  }

  @Test
  void closingTheStreamEndsTheSession() throws Exception {
    URI messages;
    try (Stream s = open(http)) {
      messages = initialize(http, s);
      assertThat(http.sessionCount()).isPositive();
    }
    // Every stream this class opened is closed now (the other tests' too): all their sessions end.
    // The keep-alive (every 100 ms) notices the closed connection.
    Poll.until(
        WAIT, Duration.ofMillis(10), () -> "every session ended", () -> http.sessionCount() == 0);
    assertThat(http.sessionCount()).isZero();
    HttpResponse<String> gone = post(messages, request(5, "ping", "{}"));
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(gone.body()).contains("unknown session");
  }

  @Test
  void badPostsAreRefusedWithClearStatuses() throws Exception {
    try (Stream s = open(http)) {
      URI messages = initialize(http, s);
      HttpResponse<String> malformed = post(messages, "{not json");
      assertThat(malformed.statusCode()).isEqualTo(400);
      assertThat(TestClient.json(malformed)
              .object("error")
              .orElseThrow()
              .get("code")
              .toString())
          .isEqualTo("-32700");
      assertThat(malformed.body())
          .doesNotContain("Exception")
          .doesNotContain("io.promptd")
          .doesNotContain("java.");

      HttpResponse<String> noId = post(at(http, "/messages"), request(6, "ping", "{}"));
      assertThat(noId.statusCode()).isEqualTo(400);
      assertThat(noId.body()).contains("sessionId");
      assertThat(
              post(at(http, "/messages?sessionId="), request(6, "ping", "{}")).statusCode())
          .isEqualTo(400);

      HttpResponse<String> unknown =
          post(at(http, "/messages?sessionId=nope"), request(6, "ping", "{}"));
      assertThat(unknown.statusCode()).isEqualTo(404);
      assertThat(unknown.body()).contains("unknown session");

      assertThat(post(messages, request(6, "ping", "{}"), "Content-Type", "text/plain")
              .statusCode())
          .isEqualTo(415);
      HttpResponse<String> big =
          post(messages, request(7, "ping", "{\"pad\":\"" + "x".repeat(4096) + "\"}"));
      assertThat(big.statusCode()).isEqualTo(413);
      assertThat(big.body()).contains("2048 bytes");
      HttpResponse<String> get = HTTP.send(
          HttpRequest.newBuilder(messages).GET().build(), HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).isEqualTo(405);
      assertThat(get.headers().firstValue("Allow")).hasValue("POST");
      assertThat(post(at(http, "/sse"), "{}").statusCode()).isEqualTo(405);

      // the session is still served after all that
      assertThat(post(messages, request(8, "ping", "{}")).statusCode()).isEqualTo(202);
      assertThat(s.message().get("id").toString()).isEqualTo("8");
    }
    HttpResponse<String> notSse = HTTP.send(
        HttpRequest.newBuilder(at(http, "/sse"))
            .header("Accept", "application/json")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(notSse.statusCode()).isEqualTo(406);
  }

  @Test
  void foreignHostAndOriginAreRefused() throws Exception {
    try (Stream evil = open(http, "Origin", "http://evil.example.com")) {
      assertThat(evil.response.statusCode()).isEqualTo(403);
    }
    // The event is raised once the exchange has ended, which may be just after the client read the
    // status.
    Poll.until(
        WAIT,
        Duration.ofMillis(10),
        () -> "a 403 event",
        () -> EVENTS.stream().anyMatch(e -> e.status() == 403));
    assertThat(EVENTS).anySatisfy(e -> {
      assertThat(e.transport()).isEqualTo(RequestEvent.Transport.HTTP_SSE);
      assertThat(e.status()).isEqualTo(403);
      assertThat(e.outcome()).isEqualTo(RequestEvent.Outcome.REFUSED);
    });
    int port = http.port();
    assertThat(TestClient.rawStatus(
            port,
            "GET /sse HTTP/1.1\r\nAccept: text/event-stream\r\nHost: evil.example.com\r\n",
            ""))
        .isEqualTo(403);
    try (Stream s = open(http)) {
      URI messages = initialize(http, s);
      String head = "POST " + messages.getRawPath() + "?" + messages.getRawQuery()
          + " HTTP/1.1\r\nContent-Type: application/json\r\n";
      assertThat(TestClient.rawStatus(
              port, head + "Host: evil.example.com\r\n", request(9, "ping", "{}")))
          .isEqualTo(403);
      assertThat(post(messages, request(9, "ping", "{}"), "Origin", "http://evil.example.com")
              .statusCode())
          .isEqualTo(403);
      assertThat(TestClient.rawStatus(
              port, head + "Host: localhost:" + port + "\r\n", request(9, "ping", "{}")))
          .isEqualTo(202);
    }
  }

  @Test
  void aBearerTokenIsRequiredOnBothPaths() throws Exception {
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport secured =
            HttpTransport.builder().server(s).bearerToken("s3cret").build().start()) {
      try (Stream none = open(secured)) {
        assertThat(none.response.statusCode()).isEqualTo(401);
        assertThat(none.response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      }
      try (Stream wrong = open(secured, "Authorization", "Bearer wrong")) {
        assertThat(wrong.response.statusCode()).isEqualTo(401);
      }
      try (Stream ok = open(secured, "Authorization", "Bearer s3cret")) {
        assertThat(ok.response.statusCode()).isEqualTo(200);
        URI messages = initialize(secured, ok, "Authorization", "Bearer s3cret");
        HttpResponse<String> anonymous = post(messages, request(2, "ping", "{}"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(post(messages, request(2, "ping", "{}"), "Authorization", "Bearer s3cret")
                .statusCode())
            .isEqualTo(202);
        assertThat(ok.message().get("id").toString()).isEqualTo("2");
      }
    }
  }

  @Test
  void theServerStoppingEndsTheStream() throws Exception {
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport t = HttpTransport.builder().server(s).build().start();
        Stream stream = open(t)) {
      initialize(t, stream);
      assertThat(t.sessionCount()).isEqualTo(1);
      t.close();
      stream.awaitEnd();
      assertThat(t.sessionCount()).isZero();
    }
  }

  @Test
  void sessionIdsAreReadOnlyFromTheirParameter() {
    assertThat(SseTransportEndpoint.sessionId("a=1&sessionId=abc&b=2")).isEqualTo("abc");
    assertThat(SseTransportEndpoint.sessionId("xsessionId=abc")).isNull();
    assertThat(SseTransportEndpoint.sessionId(null)).isNull();
    assertThat(SseTransportEndpoint.sessionId("sessionId=%zz")).isEqualTo("%zz");
  }
}
