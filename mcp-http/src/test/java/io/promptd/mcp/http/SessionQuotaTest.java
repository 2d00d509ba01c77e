package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-caller session quotas: a caller past its quota loses its own oldest idle session and goes on;
 * other callers never notice. Callers are told apart by address here ({@code X-Forwarded-For}
 * behind a trusted proxy).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionQuotaTest {
  private static final String A = "203.0.113.1";
  private static final String B = "203.0.113.2";
  private static final String C = "203.0.113.3";
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final String PING = request(2, "ping", "{}");

  @ParameterizedTest(name = "signed ids: {0}")
  @ValueSource(booleans = {false, true})
  void aCallerPastItsQuotaLosesItsOldestIdleSessionAndOthersGoOn(boolean signed) throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessions(4).withMaxSessionsPerCaller(3))
            .sessionSecret(signed ? SECRET : null)
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        ids.add(initialize(client, A));
      }
      assertThat(http.sessionCount()).isEqualTo(3);
      // The two oldest made way, on every replica when the ids are signed (they are ended in the
      // store, not only forgotten here).
      for (String gone : ids.subList(0, 2)) {
        assertThat(ping(client, A, gone)).isEqualTo(404);
      }
      for (String kept : ids.subList(2, 5)) {
        assertThat(ping(client, A, kept)).isEqualTo(200);
      }
      // Another caller opens its own, up to the global limit, untouched by A's.
      String other = initialize(client, B);
      assertThat(http.sessionCount()).isEqualTo(4);
      // The global limit is reached: A, at its quota, still goes on at its own expense...
      String more = initialize(client, A);
      assertThat(ping(client, A, ids.get(2))).isEqualTo(404);
      assertThat(ping(client, A, more)).isEqualTo(200);
      assertThat(ping(client, B, other)).isEqualTo(200);
      // ...and so does B, under its quota: at A's, who holds the most.
      String second = initialize(client, B);
      assertThat(ping(client, A, ids.get(3))).isEqualTo(404);
      assertThat(ping(client, B, second)).isEqualTo(200);
      assertThat(ping(client, B, other)).isEqualTo(200);
      assertThat(http.sessionCount()).isEqualTo(4);
    }
  }

  @ParameterizedTest(name = "signed ids: {0}")
  @ValueSource(booleans = {false, true})
  void aFullServerEndsTheOldestIdleSessionOfTheCallerHoldingTheMost(boolean signed)
      throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessions(5).withMaxSessionsPerCaller(3))
            .sessionSecret(signed ? SECRET : null)
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      List<String> a = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        a.add(initialize(client, A));
      }
      String b1 = initialize(client, B);
      String b2 = initialize(client, B);
      assertThat(http.sessionCount()).isEqualTo(5);
      // A third caller, holding nothing, is not locked out: A, who holds the most, gives way.
      String c = initialize(client, C);
      assertThat(http.sessionCount()).isEqualTo(5);
      assertThat(ping(client, A, a.get(0))).isEqualTo(404);
      for (String kept : a.subList(1, 3)) {
        assertThat(ping(client, A, kept)).isEqualTo(200);
      }
      assertThat(ping(client, B, b1)).isEqualTo(200);
      assertThat(ping(client, B, b2)).isEqualTo(200);
      assertThat(ping(client, C, c)).isEqualTo(200);
    }
  }

  @Test
  void aFullServerWhoseSessionsAreAllInUseGets503() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessions(2).withMaxSessionsPerCaller(2))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      List<HttpResponse<InputStream>> streams = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          String sid = initialize(client, A);
          HttpResponse<InputStream> get =
              client.getStream("Mcp-Session-Id", sid, "X-Forwarded-For", A);
          assertThat(get.statusCode()).isEqualTo(200);
          streams.add(get);
        }
        assertThat(client.post(init(), "X-Forwarded-For", B).statusCode()).isEqualTo(503);
        assertThat(http.sessionCount()).isEqualTo(2);
      } finally {
        for (HttpResponse<InputStream> s : streams) {
          s.body().close();
        }
      }
    }
  }

  @Test
  void aCallerWhoseSessionsAreAllInUseGets429() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessionsPerCaller(2))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      List<HttpResponse<InputStream>> streams = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          String sid = initialize(client, A);
          HttpResponse<InputStream> get = client.getStream(
              "Mcp-Session-Id", sid, "X-Forwarded-For", A); // a stream keeps the session in use
          assertThat(get.statusCode()).isEqualTo(200);
          streams.add(get);
        }
        HttpResponse<String> refused = client.post(init(), "X-Forwarded-For", A);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("2 open sessions, all in use");
        assertThat(http.sessionCount()).isEqualTo(2);
        initialize(client, B);
      } finally {
        for (HttpResponse<InputStream> s : streams) {
          s.body().close();
        }
      }
    }
  }

  @Test
  void anSseCallerPastItsQuotaLosesItsOldestIdleStreamAndOthersGoOn() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessionsPerCaller(2))
            .build()
            .start()) {
      List<SseTransportTest.Stream> streams = new ArrayList<>();
      try {
        List<URI> endpoints = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          SseTransportTest.Stream s = SseTransportTest.open(http, "X-Forwarded-For", A);
          streams.add(s);
          endpoints.add(SseTransportTest.initialize(http, s, "X-Forwarded-For", A));
        }
        streams.getFirst().awaitEnd(); // the oldest made way
        assertThat(http.sessionCount()).isEqualTo(2);
        assertThat(SseTransportTest.post(endpoints.getFirst(), PING, "X-Forwarded-For", A)
                .statusCode())
            .isEqualTo(404);
        for (URI kept : endpoints.subList(1, 3)) {
          assertThat(SseTransportTest.post(kept, PING, "X-Forwarded-For", A).statusCode())
              .isEqualTo(202);
        }
        SseTransportTest.Stream other = SseTransportTest.open(http, "X-Forwarded-For", B);
        streams.add(other);
        SseTransportTest.initialize(http, other, "X-Forwarded-For", B);
        assertThat(http.sessionCount()).isEqualTo(3);
      } finally {
        for (SseTransportTest.Stream s : streams) {
          s.close();
        }
      }
    }
  }

  @Test
  void aFullServerEndsTheIdlestStreamOfTheSseCallerHoldingTheMost() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .limits(HttpLimits.DEFAULTS.withMaxSessions(3).withMaxSessionsPerCaller(2))
            .build()
            .start()) {
      List<SseTransportTest.Stream> streams = new ArrayList<>();
      try {
        List<URI> endpoints = new ArrayList<>();
        for (String caller : List.of(A, A, B)) {
          SseTransportTest.Stream s = SseTransportTest.open(http, "X-Forwarded-For", caller);
          streams.add(s);
          endpoints.add(SseTransportTest.initialize(http, s, "X-Forwarded-For", caller));
        }
        SseTransportTest.Stream third = SseTransportTest.open(http, "X-Forwarded-For", C);
        streams.add(third);
        SseTransportTest.initialize(http, third, "X-Forwarded-For", C);
        streams.getFirst().awaitEnd(); // A's oldest made way
        assertThat(http.sessionCount()).isEqualTo(3);
        assertThat(SseTransportTest.post(endpoints.get(1), PING, "X-Forwarded-For", A)
                .statusCode())
            .isEqualTo(202);
        assertThat(SseTransportTest.post(endpoints.get(2), PING, "X-Forwarded-For", B)
                .statusCode())
            .isEqualTo(202);
      } finally {
        for (SseTransportTest.Stream s : streams) {
          s.close();
        }
      }
    }
  }

  private static String init() {
    return request(
        1,
        "initialize",
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
  }

  /** Opens a session as the caller at {@code address}; returns its id. */
  private static String initialize(TestClient client, String address) {
    HttpResponse<String> r = client.post(init(), "X-Forwarded-For", address);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private static int ping(TestClient client, String address, String sid) {
    return client.post(PING, "Mcp-Session-Id", sid, "X-Forwarded-For", address).statusCode();
  }
}
