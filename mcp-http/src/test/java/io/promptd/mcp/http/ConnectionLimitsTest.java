package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import io.promptd.testing.Poll;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What bounds the connections a client can hold, over real sockets: a request head that trickles in
 * is cut at its deadline (Jetty's idle timeout starts again with every byte), and so is a body that
 * trickles in below the minimum rate; one address gets so many connections and no more while
 * another still connects, the listener holds so many in all while those open are served, and the
 * server's file descriptors stay bounded under a trickle attack.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ConnectionLimitsTest {
  private static final Duration POLL = Duration.ofMillis(20);

  @Test
  void aClientTricklingItsHeadersIsDisconnectedAtTheDeadline() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withRequestHeaderTimeout(Duration.ofSeconds(2)))
            .build()
            .start();
        RawSocket slow = new RawSocket("127.0.0.1", http.port())) {
      long start = System.nanoTime();
      slow.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n");
      Thread trickle = Thread.ofVirtual().start(() -> {
        try {
          for (int i = 0; i < 200; i++) { // one header line every 250 ms: never idle for long
            TimeUnit.MILLISECONDS.sleep(250);
            slow.send("X-Slow-" + i + ": 1\r\n");
          }
        } catch (IOException | InterruptedException e) {
          // cut: what the test waits for
        }
      });
      assertThat(slow.closedWithin(Duration.ofSeconds(10)))
          .as("the trickling connection is closed")
          .isTrue();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(5));
      trickle.interrupt();
    }
  }

  @Test
  void aKeptAliveConnectionTricklingItsNextHeadIsCutToo() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withRequestHeaderTimeout(Duration.ofSeconds(1)))
            .build()
            .start();
        RawSocket client = new RawSocket("127.0.0.1", http.port())) {
      String host = "Host: 127.0.0.1:" + http.port() + "\r\n";
      assertThat(client.send("GET /healthz HTTP/1.1\r\n" + host + "\r\n").status())
          .isEqualTo(200);
      TimeUnit.MILLISECONDS.sleep(1500); // idle past the deadline: left to the idle timeout
      client.send("GET /healthz HTTP/1.1\r\n");
      long start = System.nanoTime();
      for (int i = 0; i < 12 && !client.closedWithin(Duration.ofMillis(250)); i++) {
        client.send("X-Slow-" + i + ": 1\r\n");
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("cut about a second after the head began")
          .isLessThan(Duration.ofMillis(2900));
    }
  }

  @Test
  void anOpenStreamOutlivesTheHeadDeadline() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withRequestHeaderTimeout(Duration.ofMillis(300)))
            .keepAliveInterval(Duration.ofMillis(200))
            .build()
            .start();
        RawSocket listen = new RawSocket("127.0.0.1", http.port())) {
      listen.request(StreamLimitTest.listenHead(http.port()), StreamLimitTest.LISTEN);
      assertThat(listen.status()).isEqualTo(200);
      assertThat(listen.closedWithin(Duration.ofSeconds(2)))
          .as("a stream being served has no head deadline")
          .isFalse();
    }
  }

  @Test
  void theConnectionPastTheLimitOfOneAddressIsClosedWhileAnotherAddressConnects() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withMaxConnectionsPerAddress(3))
            .build()
            .start()) {
      String probe = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n\r\n";
      List<RawSocket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          RawSocket s = new RawSocket("127.0.0.1", http.port());
          held.add(s);
          assertThat(s.send(probe).status()).isEqualTo(200);
        }
        try (RawSocket fourth = new RawSocket("127.0.0.1", http.port())) {
          assertThat(fourth.send(probe).status())
              .as("the fourth from 127.0.0.1")
              .isEqualTo(-1);
        }
        try (RawSocket other = new RawSocket("127.0.0.2", http.port())) {
          assertThat(other.send(probe).status()).as("from 127.0.0.2").isEqualTo(200);
        }
        assertThat(held.getFirst().closedWithin(Duration.ofMillis(200)))
            .as("the first three stay open")
            .isFalse();
        held.removeFirst().close();
        Poll.until(Duration.ofSeconds(5), POLL, () -> "a freed slot is usable again", () -> {
          try (RawSocket again = new RawSocket("127.0.0.1", http.port())) {
            return again.send(probe).status() == 200;
          }
        });
      } finally {
        for (RawSocket s : held) {
          s.close();
        }
      }
    }
  }

  @Test
  void aClientTricklingItsBodyIsDisconnected() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS
                .withRequestHeaderTimeout(Duration.ofSeconds(1))
                .withMinRequestDataRate(1024))
            .build()
            .start();
        RawSocket slow = new RawSocket("127.0.0.1", http.port())) {
      slow.send(bodyHead(http.port(), 100_000));
      Thread trickle = Thread.ofVirtual().start(() -> {
        try {
          for (int i = 0; i < 1000; i++) { // 10 bytes every 100 ms: never idle, far below the rate
            TimeUnit.MILLISECONDS.sleep(100);
            slow.send(" ".repeat(10));
          }
        } catch (IOException | InterruptedException e) {
          // cut: what the test waits for
        }
      });
      try {
        // The idle timeout (30 s) never fires: only the rate can cut it this soon.
        assertThat(slow.closedWithin(Duration.ofSeconds(15)))
            .as("the trickling body's connection is closed")
            .isTrue();
      } finally {
        trickle.interrupt();
        trickle.join();
      }
    }
  }

  @Test
  void aBodyArrivingSlowlyButAboveTheRateIsServed() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS
                .withRequestHeaderTimeout(Duration.ofMillis(500))
                .withMinRequestDataRate(100))
            .build()
            .start();
        RawSocket client = new RawSocket("127.0.0.1", http.port())) {
      String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
      int chunks = 20;
      int chunk = 1000; // 1,000 bytes every 100 ms: a hundred times the rate
      client.send(bodyHead(http.port(), chunks * chunk + ping.length()));
      for (int i = 0; i < chunks; i++) {
        TimeUnit.MILLISECONDS.sleep(100);
        client.send(" ".repeat(chunk));
      }
      client.send(ping);
      assertThat(client.status()).as("answered, not cut").isPositive();
    }
  }

  @Test
  void connectionsPastTheGlobalLimitWaitWhileThoseOpenAreServed() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS.withMaxConnections(3))
            .build()
            .start()) {
      String probe = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n\r\n";
      List<RawSocket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) { // from three addresses: the limit per address plays no part
          RawSocket s = new RawSocket("127.0.0." + (i + 1), http.port());
          held.add(s);
          assertThat(s.send(probe).answer()).isEqualTo(200);
        }
        RawSocket fourth = new RawSocket("127.0.0.4", http.port());
        held.add(fourth);
        fourth.send(probe);
        assertThat(fourth.quietFor(Duration.ofSeconds(1)))
            .as("the fourth connection is not served while three are open")
            .isTrue();
        assertThat(held.get(1).send(probe).answer())
            .as("an open connection is served")
            .isEqualTo(200);
        held.removeFirst().close();
        assertThat(fourth.status()).as("served once a place is free").isEqualTo(200);
      } finally {
        for (RawSocket s : held) {
          s.close();
        }
      }
    }
  }

  /**
   * The head of a legacy POST to the MCP endpoint whose body of {@code length} bytes is still to
   * come.
   */
  private static String bodyHead(int port, int length) {
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
        + "\r\nContent-Length: " + length + "\r\n\r\n";
  }

  @Test
  void theServersFileDescriptorsStayBoundedUnderATrickleAttack() throws Exception {
    File fds = new File("/proc/self/fd");
    Assumptions.assumeTrue(fds.isDirectory(), "needs /proc (Linux)");
    int limit = 16;
    int attackers = 200;
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .limits(HttpLimits.DEFAULTS
                .withMaxConnectionsPerAddress(limit)
                .withRequestHeaderTimeout(Duration.ofSeconds(2)))
            .build()
            .start()) {
      int baseline = count(fds);
      List<RawSocket> sockets = new ArrayList<>();
      Thread trickle = null;
      try {
        for (int i = 0; i < attackers; i++) {
          sockets.add(new RawSocket("127.0.0.1", http.port()).send("GET / HTTP/1.1\r\n"));
        }
        trickle = Thread.ofVirtual().start(() -> {
          try {
            for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
              for (RawSocket s : sockets) {
                try {
                  s.send("X-Slow-" + i + ": 1\r\n");
                } catch (IOException e) {
                  // cut by the server
                }
              }
              TimeUnit.MILLISECONDS.sleep(300);
            }
          } catch (InterruptedException e) {
            // done
          }
        });
        // The test holds its own 200 sockets: what is left beyond them and the baseline is the
        // server's.
        Poll.until(
            Duration.ofSeconds(5),
            POLL,
            () -> "server descriptors " + (count(fds) - baseline - attackers),
            () -> count(fds) - baseline - attackers <= limit + 8);
        Poll.until(
            Duration.ofSeconds(6),
            POLL,
            () -> "server descriptors after the deadline " + (count(fds) - baseline - attackers),
            () -> count(fds) - baseline - attackers <= 8);
      } finally {
        if (trickle != null) {
          trickle.interrupt();
          trickle.join();
        }
        for (RawSocket s : sockets) {
          s.close();
        }
      }
    }
  }

  private static int count(File fds) {
    return Objects.requireNonNull(fds.list()).length;
  }
}
