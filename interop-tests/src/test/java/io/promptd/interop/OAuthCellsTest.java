package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official TypeScript SDK clients (v1, legacy; v2 pinned to 2026-07-28) against promptd serving
 * as an OAuth 2.1 resource server, with an access token a real authorization server
 * ({@code mock-oauth2-server}) issued by the client credentials grant over HTTP.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OAuthCellsTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK {0} client with an OAuth access token")
  @ValueSource(strings = {"v1", "v2"})
  void typeScriptClientWithAnAccessToken(String sdk) throws Exception {
    int port = Peers.freePort();
    URI resource = Peers.mcpUrl(port);
    // The authorization server issues tokens for this resource (RFC 8707 audience) with the scope
    // the server requires.
    MockOAuth2Server issuer = new MockOAuth2Server(new OAuth2Config(
        false,
        null,
        null,
        false,
        new OAuth2TokenProvider(),
        Set.of(new DefaultOAuth2TokenCallback(
            "team",
            "interop",
            "JWT",
            List.of(resource.toString()),
            Map.of("scope", "prompts"),
            3600))));
    issuer.start();
    Process server = null;
    try {
      String token =
          clientCredentials(URI.create(issuer.tokenEndpointUrl("team").toString()));
      Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
      List<String> command = new ArrayList<>(PromptdServer.httpCommand(library, port));
      command.addAll(
          command.size() - 1,
          List.of(
              "--oauth-issuer", issuer.issuerUrl("team").toString(), "--oauth-scopes", "prompts"));
      server = Peers.startHttp(command, port);

      HttpResponse<String> none = post(resource, null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate").orElseThrow())
          .contains("resource_metadata=\"http://127.0.0.1:" + port
              + "/.well-known/oauth-protected-resource/mcp\"");
      awaitAccepted(resource, token);

      String report = ServerCellsTest.runNode(List.of(
          "ts-client.mjs",
          "--sdk",
          sdk,
          "--url",
          resource.toString(),
          "--bearer",
          token,
          "--get",
          "test_prompt_with_arguments",
          "--arg",
          "arg1=testValue1",
          "--arg",
          "arg2=testValue2",
          "--expect",
          "testValue1",
          "--edit-file",
          library.resolve("added_by_interop.prompt.md").toString(),
          "--min-pages",
          "2"));
      assertThat(report).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
      Matrix.record(
          "TS SDK " + sdk + " client → promptd (OAuth)",
          "http",
          sdk.equals("v1") ? "legacy" : "modern 2026-07-28",
          "client-credentials token from mock-oauth2-server; list, get+args, -32602, list_changed");
    } finally {
      if (server != null) {
        server.destroy();
        server.waitFor(10, TimeUnit.SECONDS);
      }
      issuer.shutdown();
    }
  }

  /** The client credentials grant (RFC 6749 section 4.4), as a service would ask for its token. */
  private static String clientCredentials(URI tokenEndpoint) throws Exception {
    String form = "grant_type=client_credentials&scope=" + URLEncoder.encode("prompts", UTF_8);
    HttpRequest request = HttpRequest.newBuilder(tokenEndpoint)
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header(
            "Authorization",
            "Basic " + Base64.getEncoder().encodeToString("interop:secret".getBytes(UTF_8)))
        .POST(HttpRequest.BodyPublishers.ofString(form))
        .build();
    HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return ((JsonObject) JsonCodec.parse(r.body())).string("access_token").orElseThrow();
  }

  private static HttpResponse<String> post(URI uri, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The server fetches the issuer's keys in the background after start-up: wait until it accepts
   * the token.
   */
  private static void awaitAccepted(URI resource, String token) throws Exception {
    int[] status = new int[1];
    Poll.until(
        Duration.ofSeconds(60),
        Duration.ofMillis(100),
        () -> "the token accepted",
        () -> (status[0] = post(resource, token).statusCode()) != 401);
    assertThat(status[0]).isEqualTo(200);
  }
}
