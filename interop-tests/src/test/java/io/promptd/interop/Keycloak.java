package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real Keycloak ({@code keycloak-quarkus-dist}, unpacked into {@code target/keycloak} by the
 * build) started in development mode on a free loopback port with an in-memory database, and the
 * admin REST calls that build the realm promptd's clients log in to. {@link #close} stops it and
 * every process it started.
 */
final class Keycloak implements AutoCloseable {
  static final Path HOME = Path.of(System.getProperty("promptd.keycloak.home", "target/keycloak"));
  static final String REALM = "promptd";
  /** Holds the realm role {@code ops}, so her tokens carry the {@code ops} scope. */
  static final String ALICE = "alice";
  /** Has no role: her tokens never carry {@code ops}. */
  static final String BOB = "bob";

  static final String PASSWORD = "correct-horse";
  /** The pre-registered public client (the path for clients that cannot register themselves). */
  static final String CLIENT_ID = "promptd-cli";

  private static final Duration START_WITHIN = Duration.ofMinutes(4);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private final Process process;
  private final URI base;
  private final String adminPassword;

  private Keycloak(Process process, URI base, String adminPassword) {
    this.process = process;
    this.base = base;
    this.adminPassword = adminPassword;
  }

  /**
   * Skips the calling test when the distribution is not unpacked (offline, never downloaded),
   * except in CI, where its absence is a failure.
   */
  static void require() {
    boolean present = Files.isExecutable(HOME.resolve("bin/kc.sh"));
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("Keycloak is missing in CI: " + HOME
          + " (the build unpacks org.keycloak:keycloak-quarkus-dist into interop-tests/target)");
    }
    assumeThat(present)
        .as("Keycloak unpacked at " + HOME + " (mvn generate-test-resources -pl interop-tests,"
            + " online once, fetches org.keycloak:keycloak-quarkus-dist)")
        .isTrue();
  }

  /**
   * Starts {@code kc.sh start-dev} and returns once the master realm answers; its log goes to
   * {@code log}.
   */
  static Keycloak start(Path log) throws Exception {
    require();
    int port = Peers.freePort();
    int management = Peers.freePort();
    String adminPassword = UUID.randomUUID().toString();
    ProcessBuilder pb = new ProcessBuilder(
            HOME.resolve("bin/kc.sh").toString(),
            "start-dev",
            "--http-host=127.0.0.1",
            "--http-port=" + port,
            "--http-management-port=" + management,
            "--db=dev-mem")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64");
    env.put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
    env.put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
    env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
    Keycloak kc = new Keycloak(pb.start(), URI.create("http://127.0.0.1:" + port), adminPassword);
    try {
      URI ready = kc.base.resolve("/realms/master/.well-known/openid-configuration");
      Poll.until(
          START_WITHIN,
          Duration.ofMillis(500),
          () -> "Keycloak answering " + ready + " (log: " + log + ")",
          () -> {
            if (!kc.process.isAlive()) {
              throw new AssertionError("Keycloak exited: " + Files.readString(log));
            }
            try {
              return HTTP.send(
                          HttpRequest.newBuilder(ready)
                              .timeout(Duration.ofSeconds(5))
                              .build(),
                          HttpResponse.BodyHandlers.discarding())
                      .statusCode()
                  == 200;
            } catch (IOException e) {
              return false;
            }
          });
      return kc;
    } catch (Throwable t) {
      kc.close();
      throw t;
    }
  }

  /** The issuer identifier of {@link #REALM}, as Keycloak spells it. */
  URI issuer() {
    return base.resolve("/realms/" + REALM);
  }

  /**
   * Builds the realm promptd's clients log in to; {@code resource} is promptd's URL, which access
   * tokens must name in {@code aud}. Each step is one admin REST call, listed in docs/oauth.md.
   */
  void createRealm(URI resource, URI preRegisteredRedirect) throws Exception {
    admin("POST", "/admin/realms", """
        {"realm": "%s", "enabled": true}""".formatted(REALM));
    String realm = "/admin/realms/" + REALM;
    admin("POST", realm + "/roles", """
        {"name": "ops", "description": "May use the ops prompts"}""");
    // The scope promptd requires to connect; its mapper puts promptd's URL into aud (Keycloak
    // does not act on the RFC 8707 resource parameter).
    String prompts = created(admin("POST", realm + "/client-scopes", """
        {"name": "prompts", "protocol": "openid-connect",
         "attributes": {"include.in.token.scope": "true", "display.on.consent.screen": "true"},
         "protocolMappers": [{"name": "promptd audience", "protocol": "openid-connect",
           "protocolMapper": "oidc-audience-mapper",
           "config": {"included.custom.audience": "%s", "access.token.claim": "true",
                      "id.token.claim": "false", "introspection.token.claim": "true"}}]}""".formatted(resource)));
    // A client scope with a role scope mapping is granted only to users holding the role.
    String ops = created(admin("POST", realm + "/client-scopes", """
        {"name": "ops", "protocol": "openid-connect",
         "attributes": {"include.in.token.scope": "true", "display.on.consent.screen": "true"}}"""));
    String opsRole = admin("GET", realm + "/roles/ops", null).body();
    admin("POST", realm + "/client-scopes/" + ops + "/scope-mappings/realm", "[" + opsRole + "]");
    // Default scopes of the realm: every client, registered or not, gets them without asking.
    admin("PUT", realm + "/default-default-client-scopes/" + prompts, null);
    admin("PUT", realm + "/default-default-client-scopes/" + ops, null);
    for (String user : List.of(ALICE, BOB)) {
      String id = created(admin("POST", realm + "/users", """
          {"username": "%1$s", "enabled": true, "email": "%1$s@example.com",
           "emailVerified": true, "firstName": "%1$s", "lastName": "Example",
           "credentials": [{"type": "password", "value": "%2$s", "temporary": false}]}""".formatted(user, PASSWORD)));
      if (user.equals(ALICE)) {
        admin("POST", realm + "/users/" + id + "/role-mappings/realm", "[" + opsRole + "]");
      }
    }
    trustLoopbackForRegistration(realm);
    admin("POST", realm + "/clients", """
        {"clientId": "%s", "name": "promptd's clients", "publicClient": true,
         "standardFlowEnabled": true, "directAccessGrantsEnabled": false,
         "redirectUris": ["%s"],
         "attributes": {"pkce.code.challenge.method": "S256"}}""".formatted(CLIENT_ID, preRegisteredRedirect));
  }

  /** Registers a client of the realm: {@code body} is its JSON, as the admin REST API takes it. */
  void createClient(String body) throws Exception {
    admin("POST", "/admin/realms/" + REALM + "/clients", body);
  }

  /**
   * Keycloak's anonymous registration policy "Trusted Hosts" trusts no host out of the box: every
   * anonymous RFC 7591 request is refused. Trusting the loopback addresses lets a client on this
   * machine register itself with loopback redirect URIs (what MCP clients do).
   */
  private void trustLoopbackForRegistration(String realm) throws Exception {
    String type = "org.keycloak.services.clientregistration.policy.ClientRegistrationPolicy";
    JsonArray policies = (JsonArray) JsonCodec.parse(
        admin("GET", realm + "/components?type=" + URLEncoder.encode(type, UTF_8), null)
            .body());
    for (Json p : policies.elements()) {
      JsonObject policy = (JsonObject) p;
      if (policy.string("providerId").orElse("").equals("trusted-hosts")
          && policy.string("subType").orElse("").equals("anonymous")) {
        String id = policy.string("id").orElseThrow();
        admin("PUT", realm + "/components/" + id, """
            {"id": "%s", "name": "%s", "providerId": "trusted-hosts",
             "providerType": "%s", "subType": "anonymous", "parentId": "%s",
             "config": {"trusted-hosts": ["127.0.0.1", "localhost"],
                        "host-sending-registration-request-must-match": ["true"],
                        "client-uris-must-match": ["true"]}}""".formatted(
                id,
                policy.string("name").orElseThrow(),
                type,
                policy.string("parentId").orElseThrow()));
        return;
      }
    }
    throw new AssertionError("no anonymous Trusted Hosts policy in " + policies);
  }

  /** The anonymous client registration policies of the realm, by provider id (for the notes). */
  List<String> anonymousPolicies() throws Exception {
    String type = "org.keycloak.services.clientregistration.policy.ClientRegistrationPolicy";
    JsonArray policies = (JsonArray) JsonCodec.parse(admin(
            "GET",
            "/admin/realms/" + REALM + "/components?type=" + URLEncoder.encode(type, UTF_8),
            null)
        .body());
    return policies.elements().stream()
        .map(p -> (JsonObject) p)
        .filter(p -> p.string("subType").orElse("").equals("anonymous"))
        .map(p -> p.string("providerId").orElse("?"))
        .sorted()
        .toList();
  }

  /** The realm's client {@code clientId} as the admin API shows it (its scopes, for one). */
  JsonObject client(String clientId) throws Exception {
    JsonArray found = (JsonArray) JsonCodec.parse(admin(
            "GET",
            "/admin/realms/" + REALM + "/clients?clientId=" + URLEncoder.encode(clientId, UTF_8),
            null)
        .body());
    return (JsonObject) found.get(0);
  }

  private static String created(HttpResponse<String> r) {
    String location = r.headers().firstValue("Location").orElseThrow();
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** One admin REST call with a fresh token (the master realm's tokens live a minute). */
  private HttpResponse<String> admin(String method, String path, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + adminToken())
        .header("Content-Type", "application/json")
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new AssertionError(
          method + " " + path + " answered " + r.statusCode() + ": " + r.body());
    }
    return r;
  }

  private String adminToken() throws Exception {
    String form = "grant_type=password&client_id=admin-cli&username=admin&password="
        + URLEncoder.encode(adminPassword, UTF_8);
    HttpResponse<String> r = HTTP.send(
        HttpRequest.newBuilder(base.resolve("/realms/master/protocol/openid-connect/token"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError("admin token: " + r.statusCode() + ": " + r.body());
    }
    return ((JsonObject) JsonCodec.parse(r.body())).string("access_token").orElseThrow();
  }

  /** Stops Keycloak: kc.sh runs the server as its child, so the whole tree is ended. */
  @Override
  public void close() throws InterruptedException {
    List<ProcessHandle> tree = process.descendants().toList();
    tree.forEach(ProcessHandle::destroy);
    process.destroy();
    for (ProcessHandle h : tree) {
      try {
        h.onExit().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        h.destroyForcibly();
      }
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
