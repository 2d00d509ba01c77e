package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A port someone else holds is a clear error that names it and what to do, not the embedded
 * server's own words.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortInUseTest {
  @Test
  void aTakenPortIsNamedWithWhatToDo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        McpServer server = McpServer.builder().build()) {
      int port = taken.getLocalPort();
      HttpTransport http = HttpTransport.builder().server(server).port(port).build();
      assertThatThrownBy(http::start)
          .isInstanceOf(IOException.class)
          .hasMessage("cannot listen on 127.0.0.1:" + port
              + ": the address is in use (another server on that port?); choose another port, or 0 for any"
              + " free one");
    }
  }
}
