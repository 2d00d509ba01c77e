package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.server.McpServer;
import io.promptd.testing.Poll;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The OAuth 2.1 resource server against a real authorization server ({@code mock-oauth2-server}:
 * real signed JWTs, a real JWKS and discovery over real HTTP on a free port), in both eras.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OAuthHttpTest {
  static final String INIT = request(
      1,
      "initialize",
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
  static final String LIST = modern(1, "prompts/list", "");
  static final String[] LIST_HEADERS = modernHeaders("prompts/list", null);

  private static MockOAuth2Server issuerServer;
  private static McpServer server;
  private static HttpTransport http;
  private static TestClient client;
  private static String issuer;
  private static String audience;

  @BeforeAll
  static void start() throws Exception {
    issuerServer = new MockOAuth2Server();
    issuerServer.start();
    issuer = issuerServer.issuerUrl("team").toString();
    server = ConformanceFixtures.server();
    http = HttpTransport.builder()
        .server(server)
        .oauth(OAuthSettings.issuer(URI.create(issuer)).withScopes(List.of("prompts")))
        .build()
        .start();
    client = new TestClient(http.uri());
    audience = http.uri().toString();
    awaitReady(http);
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
    issuerServer.shutdown();
  }

  static void awaitReady(HttpTransport t) throws Exception {
    Poll.until(
        Duration.ofSeconds(30),
        Duration.ofMillis(20),
        () -> "the issuer's keys fetched",
        t::authReady);
  }

  /** A token from the real issuer. */
  static String token(
      MockOAuth2Server as, String issuerId, String subject, String aud, String scope, long expiry) {
    return as.issueToken(issuerId, subject, aud, Map.of("scope", scope), expiry).serialize();
  }

  private static String token(String subject, String scope) {
    return token(issuerServer, "team", subject, audience, scope, 3600);
  }

  private static String[] bearer(String token, String... more) {
    String[] out = new String[more.length + 2];
    out[0] = "Authorization";
    out[1] = "Bearer " + token;
    System.arraycopy(more, 0, out, 2, more.length);
    return out;
  }

  /**
   * A 401 whose challenge names the metadata, with error="invalid_token" (or none), and a safe
   * body.
   */
  private static void assertRefused(HttpResponse<String> r, int status, String error) {
    assertThat(r.statusCode()).isEqualTo(status);
    String challenge = r.headers().firstValue("WWW-Authenticate").orElseThrow();
    assertThat(challenge)
        .startsWith("Bearer ")
        .contains("resource_metadata=\"" + http.resourceMetadataUri().orElseThrow() + "\"")
        .contains("scope=\"prompts\"");
    if (error == null) {
      assertThat(challenge).doesNotContain("error=");
    } else {
      assertThat(challenge).contains("error=\"" + error + "\"");
    }
    assertSafe(r.body());
  }

  static void assertSafe(String body) {
    assertThat(body)
        .startsWith("{\"jsonrpc\":\"2.0\",\"error\":")
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .doesNotContain("com.nimbusds")
        .doesNotContain("java.")
        .doesNotContain("io.promptd");
  }

  @Test
  void noTokenGets401AndAChallengeWhoseMetadataResolves() {
    HttpResponse<String> legacy = client.post(INIT);
    assertRefused(legacy, 401, null);
    assertRefused(client.post(LIST, LIST_HEADERS), 401, null);

    URI metadata = http.resourceMetadataUri().orElseThrow();
    assertThat(metadata.getPath()).isEqualTo("/.well-known/oauth-protected-resource/mcp");
    for (URI uri : List.of(metadata, metadata.resolve("/.well-known/oauth-protected-resource"))) {
      HttpResponse<String> doc = new TestClient(uri).get();
      assertThat(doc.statusCode()).isEqualTo(200);
      assertThat(doc.headers().firstValue("Content-Type")).hasValue("application/json");
      JsonObject json = TestClient.json(doc);
      assertThat(json.string("resource")).hasValue(audience);
      assertThat(TestClient.text(json.array("authorization_servers").orElseThrow()))
          .isEqualTo("[\"" + issuer + "\"]");
      assertThat(TestClient.text(json.array("scopes_supported").orElseThrow()))
          .isEqualTo("[\"prompts\"]");
      assertThat(TestClient.text(json.array("bearer_methods_supported").orElseThrow()))
          .isEqualTo("[\"header\"]");
    }
  }

  @Test
  void theMetadataStillChecksHostAndOrigin() throws Exception {
    String head = "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\n";
    assertThat(TestClient.rawStatus(http.port(), head + "Host: evil.example.com\r\n", ""))
        .isEqualTo(403);
    assertThat(new TestClient(http.resourceMetadataUri().orElseThrow())
            .get("Origin", "http://evil.example.com")
            .statusCode())
        .isEqualTo(403);
  }

  @Test
  void aValidTokenIsAcceptedInBothEras() {
    String t = token("alice", "prompts other");
    HttpResponse<String> init = client.post(INIT, bearer(t));
    assertThat(init.statusCode()).isEqualTo(200);
    HttpResponse<String> list = client.post(LIST, bearer(t, LIST_HEADERS));
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains("\"prompts\"");
  }

  @Test
  void scopesMayComeAsAnScpArray() {
    String t = issuerServer
        .issueToken("team", "carol", audience, Map.of("scp", List.of("prompts")), 3600)
        .serialize();
    assertThat(client.post(LIST, bearer(t, LIST_HEADERS)).statusCode()).isEqualTo(200);
  }

  @Test
  void aTokenForAnotherAudienceIsRefused() {
    String t =
        token(issuerServer, "team", "alice", "https://other.example.com/mcp", "prompts", 3600);
    assertRefused(client.post(INIT, bearer(t)), 401, "invalid_token");
    assertRefused(client.post(LIST, bearer(t, LIST_HEADERS)), 401, "invalid_token");
  }

  @Test
  void anExpiredTokenIsRefused() {
    String t = token(issuerServer, "team", "alice", audience, "prompts", -600);
    assertRefused(client.post(INIT, bearer(t)), 401, "invalid_token");
    assertRefused(client.post(LIST, bearer(t, LIST_HEADERS)), 401, "invalid_token");
  }

  @Test
  void aTokenFromAnotherIssuerIsRefused() {
    String t = token(issuerServer, "elsewhere", "alice", audience, "prompts", 3600);
    assertRefused(client.post(INIT, bearer(t)), 401, "invalid_token");
  }

  @Test
  void aForgedSignatureIsRefused() throws Exception {
    SignedJWT real = SignedJWT.parse(token("alice", "prompts"));
    RSAKey forger = new RSAKeyGenerator(2048).keyID(real.getHeader().getKeyID()).generate();
    SignedJWT forged = new SignedJWT(
        new JWSHeader.Builder(JWSAlgorithm.RS256)
            .keyID(forger.getKeyID())
            .type(JOSEObjectType.JWT)
            .build(),
        real.getJWTClaimsSet());
    forged.sign(new RSASSASigner(forger));
    assertRefused(client.post(INIT, bearer(forged.serialize())), 401, "invalid_token");
    String[] parts = real.serialize().split("\\.");
    String tampered = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    assertRefused(client.post(LIST, bearer(tampered, LIST_HEADERS)), 401, "invalid_token");
  }

  @Test
  void unsignedAndHmacTokensAreRefused() throws Exception {
    SignedJWT real = SignedJWT.parse(token("alice", "prompts"));
    JWTClaimsSet claims = real.getJWTClaimsSet();
    assertRefused(
        client.post(INIT, bearer(new PlainJWT(claims).serialize())), 401, "invalid_token");
    String noneWithSignature = new PlainJWT(claims).serialize() + "c2ln";
    assertRefused(client.post(INIT, bearer(noneWithSignature)), 401, "invalid_token");

    SignedJWT hmac = new SignedJWT(
        new JWSHeader.Builder(JWSAlgorithm.HS256)
            .keyID(real.getHeader().getKeyID())
            .build(),
        claims);
    hmac.sign(
        new MACSigner("a-secret-of-at-least-thirty-two-bytes!!".getBytes(StandardCharsets.UTF_8)));
    assertRefused(client.post(INIT, bearer(hmac.serialize())), 401, "invalid_token");

    // Algorithm confusion: HMAC keyed with the issuer's public key, which anyone can fetch.
    String jwks = new TestClient(URI.create(issuerServer.jwksUrl("team").toString()))
        .get()
        .body();
    RSAKey publicKey = JWKSet.parse(jwks).getKeys().getFirst().toRSAKey();
    SignedJWT confused = new SignedJWT(
        new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(publicKey.getKeyID()).build(), claims);
    confused.sign(new MACSigner(publicKey.toRSAPublicKey().getEncoded()));
    assertRefused(
        client.post(LIST, bearer(confused.serialize(), LIST_HEADERS)), 401, "invalid_token");
  }

  @Test
  void anOversizeTokenIsRefusedWith401() {
    String big = issuerServer
        .issueToken(
            "team",
            "alice",
            audience,
            Map.of("scope", "prompts", "pad", "x".repeat(9 * 1024)),
            3600)
        .serialize();
    assertThat(big.length()).isGreaterThan(8 * 1024);
    assertRefused(client.post(INIT, bearer(big)), 401, "invalid_token");
  }

  @Test
  void malformedAuthorizationHeadersAreRefusedWith400AndBadTokensWith401() {
    // RFC 6750 section 3.1: invalid_request is 400 Bad Request, invalid_token 401.
    assertRefused(client.post(INIT, "Authorization", "Bearer"), 400, "invalid_request");
    assertRefused(client.post(INIT, "Authorization", "Bearer a b c"), 400, "invalid_request");
    assertRefused(client.post(INIT, "Authorization", "Bearer a b"), 400, "invalid_request");
    assertRefused(client.post(INIT, "Authorization", "Bearer not-a-jwt"), 401, "invalid_token");
    assertRefused(client.post(INIT, "Authorization", "Bearer e30.e30.e30"), 401, "invalid_token");
    assertRefused(
        client.post(INIT, "Authorization", "Bearer \u00e9t\u00e9"), 400, "invalid_request");
    assertRefused(client.post(INIT, "Authorization", "Basic YWxpY2U6cHc="), 401, null);
    String t = token("alice", "prompts");
    assertRefused(
        client.post(INIT, "Authorization", "Bearer " + t, "Authorization", "Bearer " + t),
        400,
        "invalid_request");
  }

  @Test
  void aTokenWithAnEmptySubjectIsRefused() {
    for (String sub : List.of("", " ")) {
      String t = issuerServer
          .issueToken("team", sub, audience, Map.of("scope", "prompts"), 3600)
          .serialize();
      assertRefused(client.post(INIT, bearer(t)), 401, "invalid_token");
    }
    assertThat(client.post(INIT, bearer(token("alice", "prompts"))).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aTokenWhoseSubjectIsNoStringIsRefused() {
    // The authorization server signs whatever claims it is given: the extra claim replaces the
    // subject.
    for (Object sub : List.<Object>of(42, true, List.of("alice"), Map.of("id", "alice"))) {
      String t = issuerServer
          .issueToken("team", "alice", audience, Map.of("scope", "prompts", "sub", sub), 3600)
          .serialize();
      assertRefused(client.post(INIT, bearer(t)), 401, "invalid_token");
    }
  }

  @Test
  void aTokenWithoutTheRequiredScopeGets403() {
    String t = token("alice", "other");
    for (HttpResponse<String> r :
        List.of(client.post(INIT, bearer(t)), client.post(LIST, bearer(t, LIST_HEADERS)))) {
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.headers().firstValue("WWW-Authenticate").orElseThrow())
          .contains("error=\"insufficient_scope\"")
          .contains("scope=\"prompts\"")
          .contains("resource_metadata=\"" + http.resourceMetadataUri().orElseThrow() + "\"");
      assertSafe(r.body());
    }
  }

  @Test
  void aLegacySessionBelongsToItsTokensSubject() {
    String alice = token("alice", "prompts");
    String bob = token("bob", "prompts");
    HttpResponse<String> init = client.post(INIT, bearer(alice));
    String sid = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(client
            .post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                bearer(alice, "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(202);
    String ping = request(2, "ping", "{}");
    assertThat(client.post(ping, bearer(alice, "Mcp-Session-Id", sid)).statusCode())
        .isEqualTo(200);

    HttpResponse<String> unknown =
        client.post(ping, bearer(bob, "Mcp-Session-Id", "no-such-session"));
    HttpResponse<String> stolen = client.post(ping, bearer(bob, "Mcp-Session-Id", sid));
    assertThat(stolen.statusCode()).isEqualTo(404).isEqualTo(unknown.statusCode());
    assertThat(stolen.body()).isEqualTo(unknown.body());
    assertThat(client
            .get(bearer(bob, "Accept", "text/event-stream", "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(404);
    assertThat(client.delete(bearer(bob, "Mcp-Session-Id", sid)).statusCode()).isEqualTo(404);
    // Still alice's, and still open.
    assertThat(client
            .post(ping, bearer(token("alice", "prompts"), "Mcp-Session-Id", sid))
            .statusCode())
        .isEqualTo(200);
    assertThat(client.delete(bearer(alice, "Mcp-Session-Id", sid)).statusCode()).isEqualTo(204);
  }

  @Test
  void bearerTokenAndOAuthExcludeEachOther() {
    assertThatThrownBy(() -> HttpTransport.builder()
            .server(server)
            .bearerToken("s")
            .oauth(OAuthSettings.issuer(URI.create(issuer)))
            .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exclude each other");
  }

  @Test
  void anUnreachableIssuerStillStartsAndAnswers401WithMetadata() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    URI nowhere = URI.create("http://127.0.0.1:" + closedPort + "/realm");
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport t = HttpTransport.builder()
            .server(s)
            .oauth(OAuthSettings.issuer(nowhere))
            .build()
            .start()) {
      assertThat(t.authReady()).isFalse();
      assertThat(t.authProblem()).isPresent();
      TestClient c = new TestClient(t.uri());
      HttpResponse<String> none = c.post(INIT);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate").orElseThrow())
          .contains("resource_metadata=\"" + t.resourceMetadataUri().orElseThrow() + "\"");
      HttpResponse<String> doc = new TestClient(t.resourceMetadataUri().orElseThrow()).get();
      assertThat(doc.statusCode()).isEqualTo(200);
      assertThat(TestClient.json(doc).string("resource")).hasValue(t.uri().toString());
      String valid = token(issuerServer, "team", "alice", t.uri().toString(), "prompts", 3600);
      HttpResponse<String> refused = c.post(INIT, bearer(valid));
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.body()).contains("not available yet");
      assertSafe(refused.body());
      assertThat(t.authReady()).isFalse();
      assertThat(t.notReady()).as("readiness says so").containsExactly("oauth issuer keys fetched");
      HttpResponse<String> readyz = new TestClient(t.uri().resolve("/readyz")).get();
      assertThat(readyz.statusCode()).isEqualTo(503);
      assertThat(readyz.body()).contains("oauth issuer keys fetched");
    }
  }

  /**
   * The issuer's signing key, replaced on demand: the real server then signs with it and serves it
   * as its JWKS.
   */
  static final class RotatingKeys extends KeyProvider {
    private volatile RSAKey current;
    private int generation = 1;

    RotatingKeys() throws Exception {
      current = new RSAKeyGenerator(2048).keyID("key-1").generate();
    }

    synchronized void rotate() throws Exception {
      current = new RSAKeyGenerator(2048).keyID("key-" + ++generation).generate();
    }

    @Override
    public JWK signingKey(String keyId) {
      return current;
    }
  }

  @Test
  void aTokenSignedWithANewKeyRefreshesTheKeySetOnceInAWhile() throws Exception {
    RotatingKeys keys = new RotatingKeys();
    MockOAuth2Server rotating = new MockOAuth2Server(
        new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
    rotating.start();
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport t = HttpTransport.builder()
            .server(s)
            .keyRefreshInterval(Duration.ofMinutes(10))
            .oauth(OAuthSettings.issuer(URI.create(rotating.issuerUrl("rot").toString())))
            .build()
            .start()) {
      awaitReady(t);
      TestClient c = new TestClient(t.uri());
      String aud = t.uri().toString();
      assertThat(c.post(INIT, bearer(token(rotating, "rot", "alice", aud, "", 3600)))
              .statusCode())
          .isEqualTo(200);

      keys.rotate(); // the issuer now signs with key-2, which the server has never seen
      String second = token(rotating, "rot", "alice", aud, "", 3600);
      assertThat(SignedJWT.parse(second).getHeader().getKeyID()).isEqualTo("key-2");
      assertThat(c.post(INIT, bearer(second)).statusCode())
          .as("an unknown kid refreshes the key set")
          .isEqualTo(200);
      assertThat(c.post(INIT, bearer(second)).statusCode()).isEqualTo(200);

      keys.rotate(); // key-3 within the refresh interval: no second refresh, so no refresh storm
      HttpResponse<String> third =
          c.post(INIT, bearer(token(rotating, "rot", "alice", aud, "", 3600)));
      assertThat(third.statusCode()).isEqualTo(401);
      assertSafe(third.body());
    } finally {
      rotating.shutdown();
    }
  }

  @Test
  void thePublicUrlIsTheResourceAndTheAudience() throws Exception {
    URI publicUrl = URI.create("https://prompts.example.com/mcp");
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport t = HttpTransport.builder()
            .server(s)
            .publicUrl(publicUrl)
            .oauth(OAuthSettings.issuer(URI.create(issuer)).withScopes(List.of("prompts")))
            .build()
            .start()) {
      awaitReady(t);
      assertThat(t.resourceMetadataUri())
          .hasValue(
              URI.create("https://prompts.example.com/.well-known/oauth-protected-resource/mcp"));
      String head = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: "
          + TestClient.ACCEPT_BOTH + "\r\nHost: prompts.example.com\r\n";
      String forPublic =
          token(issuerServer, "team", "alice", publicUrl.toString(), "prompts", 3600);
      String forLocal = token(issuerServer, "team", "alice", t.uri().toString(), "prompts", 3600);
      assertThat(TestClient.rawStatus(
              t.port(), head + "Authorization: Bearer " + forPublic + "\r\n", INIT))
          .isEqualTo(200);
      assertThat(TestClient.rawStatus(
              t.port(), head + "Authorization: Bearer " + forLocal + "\r\n", INIT))
          .as("a token for another audience")
          .isEqualTo(401);
      assertThat(TestClient.rawStatus(
              t.port(),
              head.replace("prompts.example.com", "evil.example.com") + "Authorization: Bearer "
                  + forPublic + "\r\n",
              INIT))
          .as("a foreign Host, even with a token")
          .isEqualTo(403);
    }
  }

  @Test
  void oauthCountsAsAuthenticationForANonLoopbackBind() {
    try (McpServer s = ConformanceFixtures.server();
        HttpTransport t = HttpTransport.builder()
            .server(s)
            .host("0.0.0.0")
            .oauth(OAuthSettings.issuer(URI.create(issuer)))
            .build()) {
      assertThat(t.authReady())
          .as("built, not started: the issuer's keys are not fetched yet")
          .isFalse();
    }
  }
}
