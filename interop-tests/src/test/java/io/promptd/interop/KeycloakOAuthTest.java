package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.testing.Poll;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * promptd as the resource server of a real Keycloak: a client that knows only promptd's URL finds
 * Keycloak through promptd's metadata, registers itself (RFC 7591) or uses the pre-registered
 * client, logs a user in through Keycloak's login form (authorization code with PKCE), and lists
 * the prompts the user's scopes permit.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KeycloakOAuthTest {
  @TempDir
  static Path dir;

  private static Keycloak keycloak;
  private static Process server;
  private static URI endpoint;
  private static OAuthBrowserClient.Callback callback;

  @BeforeAll
  @Timeout(
      value = 5,
      unit = TimeUnit.MINUTES) // Keycloak's first start builds it (a minute or more)
  static void start() throws Exception {
    Keycloak.require();
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/team"), dir.resolve("team"));
    Files.writeString(library.resolve("ops/_folder.yaml"), "scopes: [ops]\n", UTF_8);
    int port = Peers.freePort();
    endpoint = Peers.mcpUrl(port);
    callback = OAuthBrowserClient.Callback.listen();
    keycloak = Keycloak.start(dir.resolve("keycloak.log"));
    keycloak.createRealm(endpoint, callback.redirectUri());
    // docs/oauth.md's serve line (Start promptd against it), with this test's port and Keycloak.
    server = Peers.startHttp(keycloak.promptdServe(port, library), port);
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (callback != null) {
      callback.close();
    }
    if (keycloak != null) {
      keycloak.close();
    }
  }

  @Test
  void keycloakOffersWhatAnMcpClientNeeds() throws Exception {
    OAuthBrowserClient client = new OAuthBrowserClient(endpoint, callback);
    JsonObject resource = client.resourceMetadata();
    assertThat(resource.array("authorization_servers").orElseThrow())
        .isEqualTo(JsonArray.ofStrings(List.of(keycloak.issuer().toString())));
    JsonObject as = client.authorizationServerMetadata();
    assertThat(client.metadataUrl())
        .as("the first of the MCP spec's discovery URLs that Keycloak answers")
        .isEqualTo(keycloak
            .issuer()
            .resolve("/.well-known/oauth-authorization-server/realms/" + Keycloak.REALM)
            .toString());
    assertThat(as.string("issuer")).hasValue(keycloak.issuer().toString());
    assertThat(as.string("registration_endpoint")).isPresent();
    assertThat(JsonCodec.write(as.array("code_challenge_methods_supported").orElseThrow()))
        .contains("\"S256\"");
    assertThat(keycloak.anonymousPolicies())
        .containsExactly(
            "allowed-client-templates",
            "allowed-protocol-mappers",
            "consent-required",
            "max-clients",
            "registration-web-origins",
            "scope",
            "trusted-hosts");
  }

  /**
   * Keycloak was started with the {@code kc.sh} line of docs/oauth.md's section "### Build it" and
   * the realm made with that section's admin REST calls, as read from the page; the realm then
   * holds what the page's table lists.
   */
  @Test
  void theRealmBuiltAsTheDocSaysIsWhatItsTableLists() throws Exception {
    String realm = "/admin/realms/" + Keycloak.REALM;
    List<String> defaults = names(keycloak.get(realm + "/default-default-client-scopes"), "name");
    assertThat(defaults).contains("prompts", "ops");
    JsonObject opsScope = scope(realm, "ops");
    assertThat(names(
            keycloak.get(realm + "/client-scopes/" + opsScope.string("id").orElseThrow()
                + "/scope-mappings/realm"),
            "name"))
        .containsExactly("ops");
    JsonObject cli = keycloak.client(Keycloak.CLIENT_ID);
    assertThat(JsonCodec.write(cli.get("publicClient"))).isEqualTo("true");
    assertThat(cli.array("redirectUris").orElseThrow())
        .isEqualTo(JsonArray.ofStrings(List.of(callback.redirectUri().toString())));
    assertThat(cli.object("attributes").orElseThrow().string("pkce.code.challenge.method"))
        .hasValue("S256");
    String alice = ((JsonObject)
            ((JsonArray) keycloak.get(realm + "/users?exact=true&username=" + Keycloak.ALICE))
                .get(0))
        .string("id")
        .orElseThrow();
    assertThat(names(keycloak.get(realm + "/users/" + alice + "/role-mappings/realm"), "name"))
        .contains("ops");
  }

  private JsonObject scope(String realm, String name) throws Exception {
    for (var j : ((JsonArray) keycloak.get(realm + "/client-scopes")).elements()) {
      JsonObject o = (JsonObject) j;
      if (o.string("name").orElse("").equals(name)) {
        return o;
      }
    }
    throw new AssertionError("no client scope " + name);
  }

  private static List<String> names(io.promptd.mcp.json.Json listed, String field) {
    return ((JsonArray) listed)
        .elements().stream()
            .map(j -> ((JsonObject) j).string(field).orElse("?"))
            .toList();
  }

  @Test
  void aRegisteredClientListsWhatEachUserMaySee() throws Exception {
    OAuthBrowserClient client = new OAuthBrowserClient(endpoint, callback);
    client.register();
    String token = client.logIn(Keycloak.ALICE, Keycloak.PASSWORD);
    // What promptd reads: aud from the client scope's audience mapper, the scopes in scope.
    JsonObject claims = claims(token);
    assertThat(JsonCodec.write(claims.get("aud"))).contains("\"" + endpoint + "\"");
    assertThat(claims.string("scope").orElseThrow().split(" ")).contains("prompts", "ops");
    assertThat(claims.string("sub")).isPresent();
    assertThat(names(token))
        .containsExactlyInAnyOrder("standup", "ops-incident-review", "release-notes");
    assertThat(client.consentShown()).as("anonymous registrations need consent").isTrue();

    OAuthBrowserClient other = new OAuthBrowserClient(endpoint, callback);
    other.register();
    String bobs = other.logIn(Keycloak.BOB, Keycloak.PASSWORD);
    assertThat(claims(bobs).string("scope").orElseThrow().split(" "))
        .contains("prompts")
        .doesNotContain("ops");
    assertThat(names(bobs)).containsExactlyInAnyOrder("standup", "release-notes");
    Matrix.record(
        "Keycloak 26.7.3 → promptd (OAuth)",
        "http",
        "modern 2026-07-28",
        "metadata → Keycloak, DCR from loopback, code + PKCE via the login form and consent;"
            + " alice (ops) 3 prompts, bob 2");
  }

  @Test
  void thePreRegisteredClientListsWhatEachUserMaySee() throws Exception {
    OAuthBrowserClient alice = new OAuthBrowserClient(endpoint, callback);
    alice.use(Keycloak.CLIENT_ID);
    assertThat(names(alice.logIn(Keycloak.ALICE, Keycloak.PASSWORD)))
        .containsExactlyInAnyOrder("standup", "ops-incident-review", "release-notes");
    assertThat(alice.consentShown()).isFalse();
    OAuthBrowserClient bob = new OAuthBrowserClient(endpoint, callback);
    bob.use(Keycloak.CLIENT_ID);
    assertThat(names(bob.logIn(Keycloak.BOB, Keycloak.PASSWORD)))
        .containsExactlyInAnyOrder("standup", "release-notes");
    Matrix.record(
        "Keycloak 26.7.3 → promptd (OAuth)",
        "http",
        "modern 2026-07-28",
        "pre-registered public client promptd-cli, code + PKCE, no consent; alice (ops) 3 prompts, bob 2");
  }

  private static JsonObject claims(String jwt) {
    return (JsonObject)
        JsonCodec.parse(new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), UTF_8));
  }

  private static List<String> names(String token) throws Exception {
    try (McpClient mcp =
        McpClient.connectHttp(endpoint, ClientOptions.defaults().withBearerToken(token))) {
      List<String> names = new ArrayList<>();
      for (Prompt p : mcp.listPrompts()) {
        names.add(p.name());
      }
      return names;
    }
  }
}
