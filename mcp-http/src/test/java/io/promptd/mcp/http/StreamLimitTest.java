package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import io.promptd.testing.McpWire;
import io.promptd.testing.Poll;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-client limit on open event streams, over real sockets: a client past it gets 429 for a
 * listen stream, a legacy GET stream and an HTTP+SSE stream alike, while another client (another
 * address) is still served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamLimitTest {
  static final String LISTEN = McpWire.modern(
      1, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}", "test");

  static String listenHead(int port) {
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nContent-Type: application/json\r\n"
        + "Accept: " + McpWire.ACCEPT_BOTH + "\r\nMCP-Protocol-Version: " + McpWire.MODERN
        + "\r\nMcp-Method: subscriptions/listen\r\n";
  }

  @Test
  void theStreamPastAClientsLimitIsRefusedAndAnotherClientsIsAccepted() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withMaxStreamsPerClient(2))
            .keepAliveInterval(Duration.ofMillis(200)) // a client that left is noticed soon
            .build()
            .start();
        RawSocket first = new RawSocket("127.0.0.1", http.port());
        RawSocket second = new RawSocket("127.0.0.1", http.port())) {
      int port = http.port();
      assertThat(first.request(listenHead(port), LISTEN).status()).isEqualTo(200);
      assertThat(second.request(listenHead(port), LISTEN).status()).isEqualTo(200);
      try (RawSocket third = new RawSocket("127.0.0.1", port)) {
        assertThat(third
                .request(listenHead(port) + "Connection: close\r\n", LISTEN)
                .status())
            .isEqualTo(429);
        assertThat(third.rest()).contains("event streams open already");
      }
      String host = "Host: 127.0.0.1:" + port + "\r\n";
      try (RawSocket get = new RawSocket("127.0.0.1", port)) {
        get.send("GET /mcp HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n"
            + "Mcp-Session-Id: any\r\nConnection: close\r\n\r\n");
        assertThat(get.status()).as("a legacy GET stream").isEqualTo(429);
      }
      try (RawSocket sse = new RawSocket("127.0.0.1", port)) {
        sse.send("GET /sse HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n"
            + "Connection: close\r\n\r\n");
        assertThat(sse.status()).as("an HTTP+SSE stream").isEqualTo(429);
      }
      try (RawSocket other = new RawSocket("127.0.0.2", port)) {
        assertThat(other.request(listenHead(port), LISTEN).status())
            .as("another client's stream")
            .isEqualTo(200);
      }
      first.close();
      Poll.until(Duration.ofSeconds(10), Duration.ofMillis(50), () -> "a stream freed", () -> {
        try (RawSocket again = new RawSocket("127.0.0.1", port)) {
          return again.request(listenHead(port), LISTEN).status() == 200;
        }
      });
    }
  }
}
