package io.promptd.cli;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.jspecify.annotations.Nullable;

/**
 * What the management API's tests share: a real authorization server (mock-oauth2-server) that
 * issues tokens for one audience, and the HTTP calls made with them.
 */
final class ManageCalls implements AutoCloseable {
  /** A call's status and body (without its trailing newline). */
  record Answer(int status, String body) {
    JsonObject json() {
      return (JsonObject) JsonCodec.parse(body);
    }
  }

  private final MockOAuth2Server issuer = new MockOAuth2Server();
  private final String audience;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private ManageCalls(String audience) {
    this.audience = audience;
  }

  /** Starts the authorization server; its tokens name {@code audience}. */
  static ManageCalls start(String audience) {
    ManageCalls calls = new ManageCalls(audience);
    calls.issuer.start();
    return calls;
  }

  /** The issuer promptd is told to take tokens from ({@code --oauth-issuer}). */
  String issuerUrl() {
    return issuer.issuerUrl("team").toString();
  }

  /** The HTTP client the calls use, for a test's own requests (MCP calls beside the API). */
  HttpClient http() {
    return http;
  }

  /** An access token for {@code subject} holding {@code scope} (space-separated). */
  String token(String subject, String scope) {
    return issuer
        .issueToken("team", subject, audience, Map.of("scope", scope), 3600)
        .serialize();
  }

  /** {@code method path} on {@code base} with {@code token} (none when null) and a JSON body. */
  Answer call(
      String base, String method, String path, @Nullable String token, @Nullable String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(30))
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(r.statusCode(), r.body().strip());
  }

  @Override
  public void close() {
    issuer.shutdown();
  }
}
