package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.testing.Poll;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Idle expiry, the session limit and graceful shutdown. */
class SessionLifecycleTest {
  private static final String INIT = request(
      1,
      "initialize",
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");

  @Test
  void aThousandAbandonedSessionsAreReclaimed() throws Exception {
    Duration idle = Duration.ofSeconds(2);
    FrozenClock clock = new FrozenClock();
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .sessionIdleTimeout(idle)
            .sessionClock(clock)
            // one client address opens them all
            .limits(HttpLimits.DEFAULTS.withMaxSessionsPerCaller(1000))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      Set<String> ids = ConcurrentHashMap.newKeySet();
      // Eight clients on kept-alive connections, 125 sessions each, none of them ever used again.
      try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int c = 0; c < 8; c++) {
          clients.execute(() -> {
            for (int i = 0; i < 125; i++) {
              ids.add(client.post(INIT).headers().firstValue("Mcp-Session-Id").orElseThrow());
            }
          });
        }
      }
      assertThat(ids).hasSize(1000);
      assertThat(http.sessionCount())
          .as("no time has passed on the sessions' clock")
          .isEqualTo(1000);
      clock.advance(idle.plusMillis(1));
      awaitSessionCount(http, 0); // the sweeper runs every idle/4 of real time
      String any = ids.iterator().next();
      assertThat(client.post(request(2, "ping", "{}"), "Mcp-Session-Id", any).statusCode())
          .isEqualTo(404);
    }
  }

  @Test
  void sessionsInUseDoNotExpireAndExpiredOnesGet404() throws Exception {
    FrozenClock clock = new FrozenClock();
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .keepAliveInterval(Duration.ofMillis(100))
            .sessionIdleTimeout(Duration.ofMillis(300))
            .sessionClock(clock)
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      String streaming = client.initialize("2025-11-25");
      String idle = client.initialize("2025-11-25");
      HttpResponse<InputStream> stream = client.getStream("Mcp-Session-Id", streaming);
      try {
        assertThat(stream.statusCode()).isEqualTo(200);
        // The GET stream is open (its headers came), which keeps the streaming session busy.
        clock.advance(Duration.ofSeconds(1));
        awaitSessionCount(http, 1); // the idle one is swept; the busy one stays
        assertThat(client.post(request(2, "ping", "{}"), "Mcp-Session-Id", idle).statusCode())
            .isEqualTo(404);
        assertThat(client
                .post(request(2, "ping", "{}"), "Mcp-Session-Id", streaming)
                .statusCode())
            .isEqualTo(200);
      } finally {
        stream.body().close();
      }
    }
  }

  /** Polls (with a deadline) until the transport holds {@code expected} sessions. */
  private static void awaitSessionCount(HttpTransport http, int expected) throws Exception {
    Poll.until(
        Duration.ofSeconds(20),
        Duration.ofMillis(10),
        () -> "still " + http.sessionCount() + " sessions, not " + expected,
        () -> http.sessionCount() == expected);
  }

  @Test
  void theSessionLimitAnswers503WhenEverySessionIsInUse() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withMaxSessions(2))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      // An open GET stream keeps a session in use: none can make way (see SessionQuotaTest for
      // idle ones).
      HttpResponse<InputStream> first =
          client.getStream("Mcp-Session-Id", client.initialize("2025-11-25"));
      HttpResponse<InputStream> second =
          client.getStream("Mcp-Session-Id", client.initialize("2025-11-25"));
      try {
        assertThat(client.post(INIT).statusCode()).isEqualTo(503);
      } finally {
        first.body().close();
        second.body().close();
      }
    }
  }

  @Test
  void closeEndsStreamsCleanlyAndListenGetsItsFinalResponse() throws Exception {
    McpServer server = ConformanceFixtures.server();
    HttpTransport http = HttpTransport.builder().server(server).build().start();
    TestClient client = new TestClient(http.uri());
    String sid = client.initialize("2025-11-25");
    HttpResponse<InputStream> get = client.getStream("Mcp-Session-Id", sid);
    HttpResponse<InputStream> listen = client.postStream(
        TestClient.modern(
            5, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"),
        TestClient.modernHeaders("subscriptions/listen", null));
    try (TestClient.Events getEvents = new TestClient.Events(get.body());
        TestClient.Events listenEvents = new TestClient.Events(listen.body())) {
      listenEvents.next(Duration.ofSeconds(5)); // acknowledged
      http.close();
      String cancelled = listenEvents.next(Duration.ofSeconds(5)).data();
      Schemas.assertValid(TestClient.MODERN, "CancelledNotification", cancelled);
      assertThat(cancelled)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
              + "{\"requestId\":5,\"reason\":\"the server is shutting down\",\"_meta\":"
              + "{\"io.modelcontextprotocol/subscriptionId\":5}}}");
      assertThat(listenEvents.next(Duration.ofSeconds(5)).data())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":5,"
              + "\"result\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":5,\"io.modelcontextprotocol/"
              + "serverInfo\":{\"name\":\"promptd\",\"title\":\"promptd\",\"version\":\""
              + server.serverInfo().version() + "\"}},"
              + "\"resultType\":\"complete\"}}");
      listenEvents.awaitEnd(Duration.ofSeconds(5));
      getEvents.awaitEnd(Duration.ofSeconds(5));
    } finally {
      server.close();
    }
  }

  @Test
  void closeLetsInFlightRequestsFinish() throws Exception {
    McpServer server = McpServer.builder()
        .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
        .prompts(ConformanceFixtures.prompts())
        .build();
    CountDownLatch rendering = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server
        .prompts()
        .put(PromptDefinition.of(Prompt.of("slow", "takes a while", List.of()), args -> {
          rendering.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return List.of(PromptMessage.user("done"));
        }));
    HttpTransport http = HttpTransport.builder().server(server).build().start();
    TestClient client = new TestClient(http.uri());
    try (ExecutorService background = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<HttpResponse<String>> slow = background.submit(() -> client.post(
          TestClient.modern(1, "prompts/get", "\"name\":\"slow\""),
          TestClient.modernHeaders("prompts/get", "slow")));
      assertThat(rendering.await(10, TimeUnit.SECONDS)).isTrue();
      Future<?> closing = background.submit(http::close);
      int status = 0;
      for (int i = 0; i < 100 && status != 503; i++) { // until close() has begun
        status = client
            .post(TestClient.modern(2, "ping", ""), TestClient.modernHeaders("ping", null))
            .statusCode();
        Thread.sleep(status == 503 ? 0 : 20);
      }
      assertThat(status).isEqualTo(503);
      assertThat(closing.isDone()).isFalse(); // still waiting for the slow request
      release.countDown();
      closing.get(10, TimeUnit.SECONDS); // close() returns once the slow request finished
      HttpResponse<String> r = slow.get();
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("done");
    } finally {
      server.close();
    }
  }
}
