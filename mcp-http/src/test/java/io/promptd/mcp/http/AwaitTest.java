package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import io.promptd.testing.Poll;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link HttpTransport#await()} serves until the transport is closed, then returns. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AwaitTest {
  @Test
  void awaitBlocksWhileServingAndReturnsOnceClosedAndThePortIsFree() throws Exception {
    try (McpServer server = McpServer.builder().build()) {
      HttpTransport http =
          HttpTransport.builder().server(server).port(0).build().start();
      int port = http.port();
      Thread waiter = Thread.ofPlatform().start(() -> {
        try {
          http.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(10),
          () -> "the waiting thread blocks in await",
          () -> waiter.getState() == Thread.State.WAITING);
      try (Socket s = new Socket("127.0.0.1", port)) {
        assertThat(s.isConnected()).as("serving while awaited").isTrue();
      }
      assertThat(waiter.isAlive()).isTrue();

      http.close();
      waiter.join();
      assertThat(waiter.isAlive()).isFalse();
      // Returned after the port was released: it can be bound again.
      try (java.net.ServerSocket again = new java.net.ServerSocket(port)) {
        assertThat(again.getLocalPort()).isEqualTo(port);
      }
    }
  }
}
