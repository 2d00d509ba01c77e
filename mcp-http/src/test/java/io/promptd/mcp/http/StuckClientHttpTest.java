package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.StreamQueue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One client that never reads its event stream must not delay anybody else: with 200 clients
 * listening (100 modern {@code subscriptions/listen} streams, 100 legacy GET streams) and two stuck
 * ones (one of each era, with tiny socket buffers on both ends), every one of 100 catalog changes
 * reaches every reading client, and the stuck ones are disconnected once their queue's bound is
 * passed.
 */
class StuckClientHttpTest {
  private static final String LIST_CHANGED = "notifications/prompts/list_changed";
  private static final int READERS_PER_ERA = 100;
  private static final int CHANGES = 100;
  /**
   * Readers signal here whenever they count an event, so that the test awaits conditions instead of
   * sleeping.
   */
  private static final Object PROGRESS = new Object();

  private static final Queue<String> PROBLEMS = new ConcurrentLinkedQueue<>();

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void aClientThatStopsReadingDelaysNobodyAndIsDisconnected() throws Exception {
    try (McpServer server = McpServer.builder().changeCoalescing(Duration.ZERO).build();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .streamLimits(new StreamQueue.Limits(16, Duration.ofSeconds(30)))
            .acceptedSendBufferSize(4096)
            // 200 clients, all from 127.0.0.1
            .limits(HttpLimits.DEFAULTS
                .withMaxStreamsPerClient(1000)
                .withMaxConnectionsPerAddress(1000))
            .build()
            .start()) {
      TestClient client = new TestClient(http.uri());
      List<AtomicInteger> seen = new ArrayList<>();
      List<InputStream> streams = new ArrayList<>(); // modern and legacy in turn
      for (int i = 0; i < READERS_PER_ERA; i++) {
        HttpResponse<InputStream> listen = client.postStream(
            modern(i, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"),
            modernHeaders("subscriptions/listen", null));
        assertThat(listen.statusCode()).isEqualTo(200);
        streams.add(listen.body());
        String sid = client.initialize("2025-11-25");
        HttpResponse<InputStream> get = client.getStream("Mcp-Session-Id", sid);
        assertThat(get.statusCode()).isEqualTo(200);
        streams.add(get.body());
      }
      AtomicInteger opened = new AtomicInteger();
      for (int i = 0; i < streams.size(); i++) {
        seen.add(count(streams.get(i), opened, i % 2 == 0));
      }
      await(() -> opened.get() == streams.size(), "every stream to open");
      try (Socket stuckModern = stuck(http, modernListen());
          Socket stuckLegacy = stuck(http, legacyGet(client.initialize("2025-11-25")))) {
        for (int round = 1; round <= CHANGES; round++) {
          server
              .prompts()
              .put(PromptDefinition.of(
                  Prompt.of("p" + round, "change " + round, List.of()),
                  args -> List.of(PromptMessage.user("hi"))));
          int expected = round;
          await(
              () -> seen.stream().allMatch(n -> n.get() >= expected),
              () -> "change " + expected + " to reach every reader; behind (index: count, even ="
                  + " modern listen, odd = legacy GET): " + behind(seen, expected));
        }
        assertDisconnected(stuckModern);
        assertDisconnected(stuckLegacy);
      }
      assertThat(PROBLEMS).isEmpty();
      for (InputStream in : streams) {
        in.close();
      }
    }
  }

  /**
   * Counts the list_changed events on a stream, on its own virtual thread. A legacy GET stream is
   * open with its first line (it is attached before anything is written to it); a modern listen
   * stream is open once it is acknowledged: a keep-alive comment may open the response before the
   * subscription is in place, and a change published between the two is, rightly, not on that
   * stream.
   */
  private static AtomicInteger count(InputStream in, AtomicInteger opened, boolean modern) {
    AtomicInteger n = new AtomicInteger();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, UTF_8))) {
        boolean open = false;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (!open && (!modern || line.contains("notifications/subscriptions/acknowledged"))) {
            open = true;
            opened.incrementAndGet();
            signal();
          }
          if (line.startsWith("data:") && line.contains(LIST_CHANGED)) {
            if (n.get()
                // Every emitted message is checked against its era's schema: the first of each
                // stream
                == 0) {
              check(line.substring("data:".length()).trim());
            }
            n.incrementAndGet();
            signal();
          }
        }
      } catch (IOException e) {
        // closed at the end of the test
      }
    });
    return n;
  }

  private static void check(String json) {
    try {
      Schemas.assertValid(
          json.contains("subscriptionId") ? TestClient.MODERN : "2025-11-25",
          "JSONRPCNotification",
          json);
    } catch (AssertionError e) {
      PROBLEMS.add(e.getMessage());
    }
  }

  private static String modernListen() {
    String body =
        modern(999, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}");
    return "POST /mcp HTTP/1.1\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
        + "MCP-Protocol-Version: " + TestClient.MODERN + "\r\nMcp-Method: subscriptions/listen\r\n"
        + "Content-Length: " + body.getBytes(UTF_8).length + "\r\n\r\n" + body;
  }

  private static String legacyGet(String sid) {
    return "GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + sid + "\r\n\r\n";
  }

  /**
   * Sends a request that opens a stream, then never reads: its receive buffer is as small as the
   * system allows.
   */
  private static Socket stuck(HttpTransport http, String request) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(1024);
    s.connect(new InetSocketAddress("127.0.0.1", http.port()), 5_000);
    String withHost = request.replaceFirst("\r\n", "\r\nHost: 127.0.0.1:" + http.port() + "\r\n");
    s.getOutputStream().write(withHost.getBytes(UTF_8));
    s.getOutputStream().flush();
    return s;
  }

  /**
   * Reads what the server managed to send before it gave up; the stream must then end (EOF or
   * reset).
   */
  private static void assertDisconnected(Socket s) throws IOException {
    s.setSoTimeout(20_000);
    InputStream in = s.getInputStream();
    byte[] buffer = new byte[64 * 1024];
    try {
      while (in.read(buffer) >= 0) {
        // what was in flight before the server gave up
      }
    } catch (SocketException reset) {
      // the server aborted the connection: disconnected as well
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the stuck client is still connected", e);
    }
  }

  private static void signal() {
    synchronized (PROGRESS) {
      PROGRESS.notifyAll();
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    await(condition, () -> what);
  }

  /**
   * Waits up to 20 s for {@code condition}; {@code what} says, when it fails, what was awaited and
   * what was seen.
   */
  private static void await(BooleanSupplier condition, Supplier<String> what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    synchronized (PROGRESS) {
      while (!condition.getAsBoolean()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new AssertionError("waiting for " + what.get());
        }
        PROGRESS.wait(left);
      }
    }
  }

  private static String behind(List<AtomicInteger> seen, int expected) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < seen.size(); i++) {
      if (seen.get(i).get() < expected) {
        b.append(i).append(": ").append(seen.get(i).get()).append(", ");
      }
    }
    return b.toString();
  }
}
