package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.McpServer;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Remote use: the public URL's host and origin are accepted, forwarded headers count only behind a
 * trusted proxy, and a non-loopback bind needs authentication. Traffic goes to 127.0.0.1 only, with
 * the Host a remote client would send.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteHttpTest {
  private static final String INIT = request(
      1,
      "initialize",
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
  private static final String HEAD =
      "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: " + TestClient.ACCEPT_BOTH
          + "\r\n";
  private static McpServer server;
  private static HttpTransport direct;
  private static HttpTransport proxied;

  @BeforeAll
  static void start() throws Exception {
    server = ConformanceFixtures.server();
    direct = HttpTransport.builder()
        .server(server)
        .publicUrl(URI.create("https://prompts.example.com/mcp"))
        .publicUrl(URI.create("http://team.internal:8080/mcp"))
        .build()
        .start();
    proxied = HttpTransport.builder()
        .server(server)
        .trustProxy(true)
        .bearerToken("s3cret")
        .publicUrl(URI.create("https://prompts.example.com/mcp"))
        .build()
        .start();
  }

  @AfterAll
  static void stop() {
    direct.close();
    proxied.close();
    server.close();
  }

  @Test
  void publicUrlHostsAreAccepted() throws Exception {
    int port = direct.port();
    assertThat(TestClient.rawStatus(port, HEAD + "Host: prompts.example.com\r\n", INIT))
        .isEqualTo(200);
    assertThat(TestClient.rawStatus(port, HEAD + "Host: PROMPTS.example.com:443\r\n", INIT))
        .isEqualTo(200);
    assertThat(TestClient.rawStatus(port, HEAD + "Host: team.internal:8080\r\n", INIT))
        .isEqualTo(200);
    assertThat(direct.publicUris())
        .containsExactly(
            URI.create("https://prompts.example.com/mcp"),
            URI.create("http://team.internal:8080/mcp"));
  }

  @Test
  void otherHostsAndPortsStayForbidden() throws Exception {
    int port = direct.port();
    assertThat(TestClient.rawStatus(port, HEAD + "Host: evil.example.com\r\n", INIT))
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(port, HEAD + "Host: prompts.example.com:8443\r\n", INIT))
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(port, HEAD + "Host: team.internal\r\n", INIT))
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(port, HEAD + "Host: prompts.example.com.evil.com\r\n", INIT))
        .isEqualTo(403);
  }

  @Test
  void publicOriginsAreAcceptedAndForeignOnesForbidden() throws Exception {
    int port = direct.port();
    String host = "Host: prompts.example.com\r\n";
    assertThat(TestClient.rawStatus(
            port, HEAD + host + "Origin: https://prompts.example.com\r\n", INIT))
        .isEqualTo(200);
    assertThat(
            TestClient.rawStatus(port, HEAD + host + "Origin: http://team.internal:8080\r\n", INIT))
        .isEqualTo(200);
    assertThat(TestClient.rawStatus(
            port, HEAD + host + "Origin: http://prompts.example.com\r\n", INIT))
        .as("the public URL is https: its http twin is another origin")
        .isEqualTo(403);
    assertThat(
            TestClient.rawStatus(port, HEAD + host + "Origin: https://evil.example.com\r\n", INIT))
        .isEqualTo(403);
  }

  @Test
  void forwardedHeadersAreIgnoredUnlessTheProxyIsTrusted() throws Exception {
    int port = direct.port();
    assertThat(TestClient.rawStatus(
            port,
            HEAD + "Host: evil.example.com\r\nX-Forwarded-Host: prompts.example.com\r\n",
            INIT))
        .as("a forged X-Forwarded-Host does not get a foreign Host past the check")
        .isEqualTo(403);
    assertThat(TestClient.rawStatus(
            port,
            HEAD + "Host: 127.0.0.1:" + port + "\r\nX-Forwarded-Host: evil.example.com\r\n",
            INIT))
        .isEqualTo(200);
  }

  @Test
  void behindATrustedProxyTheForwardedHostIsChecked() throws Exception {
    int port = proxied.port();
    String local = "Host: 127.0.0.1:" + port + "\r\nAuthorization: Bearer s3cret\r\n";
    assertThat(TestClient.rawStatus(
            port,
            HEAD + local + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: prompts.example.com\r\n"
                + "X-Forwarded-For: 203.0.113.7\r\nOrigin: https://prompts.example.com\r\n",
            INIT))
        .isEqualTo(200);
    assertThat(TestClient.rawStatus(
            port,
            HEAD + local + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: evil.example.com\r\n",
            INIT))
        .isEqualTo(403);
  }

  @Test
  void aNonLoopbackBindNeedsAuthentication() {
    assertThatThrownBy(
            () -> HttpTransport.builder().server(server).host("0.0.0.0").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "binding 0.0.0.0 would expose the server beyond this machine without authentication; require a"
                + " bearer token or OAuth, or bind a loopback address");
    assertThatThrownBy(() -> HttpTransport.builder().server(server).host("::").build())
        .isInstanceOf(IllegalStateException.class);
    // With a token it builds (not started: nothing is bound beyond loopback in tests).
    HttpTransport.builder()
        .server(server)
        .host("0.0.0.0")
        .bearerToken("s3cret")
        .build()
        .close();
    HttpTransport.builder().server(server).host("localhost").build().close();
    HttpTransport.builder().server(server).host("127.0.0.2").build().close();
    HttpTransport.builder().server(server).host("[::1]").build().close();
  }

  @Test
  void behindATrustedProxyAPublicUrlNeedsAuthentication() {
    // Bound to loopback, but a proxy on this machine forwards whoever reaches the public URL.
    assertThatThrownBy(() -> HttpTransport.builder()
            .server(server)
            .trustProxy(true)
            .publicUrl(URI.create("https://prompts.example.com/mcp"))
            .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "serving https://prompts.example.com/mcp through a trusted proxy would expose the"
                + " server beyond this machine without authentication; require a bearer token or OAuth");
    assertThatThrownBy(() -> HttpTransport.builder()
            .server(server)
            .trustedProxies(List.of("10.0.0.0/8"))
            .publicUrl(URI.create("http://[2001:db8::1]:8080/mcp"))
            .build())
        .isInstanceOf(IllegalStateException.class);
    // A public URL on this machine, or authentication: it builds.
    HttpTransport.builder()
        .server(server)
        .trustProxy(true)
        .publicUrl(URI.create("http://127.0.0.1:8443/mcp"))
        .publicUrl(URI.create("http://localhost:8443/mcp"))
        .build()
        .close();
    HttpTransport.builder()
        .server(server)
        .trustProxy(true)
        .publicUrl(URI.create("https://prompts.example.com/mcp"))
        .bearerToken("s3cret")
        .build()
        .close();
  }

  @Test
  void boundToEveryInterfaceTheMachinesAddressesAreAccepted() throws Exception {
    try (HttpTransport all = HttpTransport.builder()
        .server(server)
        .host("0.0.0.0")
        .bearerToken("s3cret")
        .build()
        .start()) {
      int port = all.port();
      String auth = "Authorization: Bearer s3cret\r\n";
      for (URI reachable : all.reachableUris()) {
        assertThat(TestClient.rawStatus(
                port, HEAD + auth + "Host: " + reachable.getAuthority() + "\r\n", INIT))
            .as(reachable.toString())
            .isEqualTo(200);
      }
      assertThat(all.reachableUris()).contains(URI.create("http://127.0.0.1:" + port + "/mcp"));
      assertThat(TestClient.rawStatus(
              port, HEAD + auth + "Host: [0:0:0:0:0:0:0:1]:" + port + "\r\n", INIT))
          .as("an IPv6 literal written out in full")
          .isEqualTo(200);
      assertThat(
              TestClient.rawStatus(port, HEAD + auth + "Host: 198.51.100.9:" + port + "\r\n", INIT))
          .as("an address of another machine")
          .isEqualTo(403);
      assertThat(TestClient.rawStatus(
              port, HEAD + auth + "Host: prompts.example.com:" + port + "\r\n", INIT))
          .as("names need a public URL")
          .isEqualTo(403);
    }
  }

  @Test
  void publicUrlsMustBeHttpUrlsWithAHost() {
    for (String bad :
        new String[] {"ftp://x/mcp", "/mcp", "https://user@x/mcp", "https://x/mcp?q=1", "mailto:a@b"
        }) {
      assertThatThrownBy(() -> HttpTransport.builder().publicUrl(URI.create(bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("publicUrl");
    }
  }
}
