package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.McpServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whom the transport believes about a request's client: only configured proxy hops, and of
 * {@code X-Forwarded-For} only the rightmost address that is not a trusted proxy (nginx's
 * {@code $proxy_add_x_forwarded_for} appends to what the client sent). A mount that echoes what it
 * is told shows the result, including the loopback-only rule of the web catalog
 * ({@link MountRequest#fromThisMachine()}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TrustedProxyHttpTest {
  private static final HttpMount WHO = (request, response) -> response.send(
      200,
      "text/plain",
      (request.remoteAddress() + " " + (request.fromThisMachine() ? "local" : "remote"))
          .getBytes(StandardCharsets.UTF_8));

  @Test
  void aSpoofedLeftmostLoopbackAddressThroughATrustedProxyIsNotLoopback() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustProxy(true) // a proxy on this machine
            .mount("/who", WHO)
            .build()
            .start()) {
      assertThat(who(http, "127.0.0.1", "X-Forwarded-For: 127.0.0.1, 203.0.113.9\r\n"))
          .isEqualTo("203.0.113.9 remote");
      assertThat(who(
              http, "127.0.0.1", "X-Forwarded-For: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.9\r\n"))
          .as("two headers are one list")
          .isEqualTo("203.0.113.9 remote");
      assertThat(who(http, "127.0.0.1", "X-Forwarded-For: 198.51.100.7\r\n"))
          .isEqualTo("198.51.100.7 remote");
      assertThat(who(http, "127.0.0.1", "")).isEqualTo("127.0.0.1 local");
    }
  }

  @Test
  void theClientIsTheRightmostAddressThatIsNotATrustedHop() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustedProxies(List.of("127.0.0.1", "10.0.0.0/8"))
            .mount("/who", WHO)
            .build()
            .start()) {
      assertThat(who(http, "127.0.0.1", "X-Forwarded-For: 127.0.0.1, 203.0.113.9, 10.1.2.3\r\n"))
          .isEqualTo("203.0.113.9 remote");
    }
  }

  @Test
  void aRequestFromAnUntrustedPeerIsJudgedByItsRealAddress() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .trustedProxies(List.of("127.0.0.2"))
            .mount("/who", WHO)
            .build()
            .start()) {
      assertThat(who(http, "127.0.0.1", "X-Forwarded-For: 203.0.113.9\r\n"))
          .as("127.0.0.1 is no trusted proxy: its forwarding headers are ignored")
          .isEqualTo("127.0.0.1 local");
      assertThat(who(http, "127.0.0.2", "X-Forwarded-For: 203.0.113.9\r\n"))
          .as("the trusted proxy's are believed")
          .isEqualTo("203.0.113.9 remote");
    }
  }

  @Test
  void proxiesMustBeAddressesOrRanges() {
    assertThatThrownBy(() -> HttpTransport.builder().trustedProxies(List.of("proxy.example.com")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HttpTransportBuilder.trustedProxies: 'proxy.example.com'");
    assertThatThrownBy(() -> HttpTransport.builder().trustedProxies(List.of("10.0.0.0/33")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix length");
  }

  /** What the echo mount says about a request from {@code from} with {@code headers}. */
  private static String who(HttpTransport http, String from, String headers) throws Exception {
    try (RawSocket s = new RawSocket(from, http.port())) {
      s.send("GET /who HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\n" + headers
          + "Connection: close\r\n\r\n");
      String response = s.rest();
      assertThat(response).startsWith("HTTP/1.1 200");
      return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
  }
}
