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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Keycloak ({@code keycloak-quarkus-dist}, unpacked into {@code target/keycloak} by the
 * build) started in development mode on a free loopback port with an in-memory database, and the
 * admin REST calls that build the realm promptd's clients log in to: both read from docs/oauth.md,
 * so that the page says what was run. {@link #close} stops it and every process it started.
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

  /** The user page that says how to build the realm; the tests read its commands from it. */
  static final Path DOC = Peers.ROOT.resolve("docs/oauth.md");
  /** The section of {@link #DOC} with the {@code kc.sh} line and the admin REST calls. */
  static final String BUILD_IT = "### Build it";
  /** The section of {@link #DOC} with the {@code promptd serve --oauth-issuer} line. */
  static final String START_PROMPTD = "### Start promptd against it";

  /** How docs/oauth.md says to get an admin token: the token endpoint, then the form. */
  private static final Pattern TOKEN_REQUEST = Pattern.compile(
      "`ADMIN_TOKEN` from `POST (/realms/master/protocol/openid-connect/token)` with\\s+`([^`]+)`");

  private static final String DOC_KEYCLOAK_PORT = "--http-port=8080";
  private static final String DOC_RESOURCE = "http://127.0.0.1:3000/mcp";
  private static final String DOC_REDIRECT = "http://localhost:8976/callback";

  private static final Duration START_WITHIN = Duration.ofMinutes(4);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private final Process process;
  private final URI base;
  private final String adminUser;
  private final String adminPassword;

  private Keycloak(Process process, URI base, String adminUser, String adminPassword) {
    this.process = process;
    this.base = base;
    this.adminUser = adminUser;
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
   * Starts Keycloak with docs/oauth.md's {@code kc.sh start-dev} line (section {@value #BUILD_IT})
   * as written, but for its free ports (a management port added) and its own admin password, and
   * returns once the master realm answers; its log goes to {@code log}.
   */
  static Keycloak start(Path log) throws Exception {
    require();
    List<List<String>> lines =
        DocCommands.commands(DocCommands.block(DOC, BUILD_IT, "sh"), Map.of());
    if (lines.size() != 1) {
      throw new AssertionError(DOC + " (" + BUILD_IT + "): one command expected, got " + lines);
    }
    int port = Peers.freePort();
    int management = Peers.freePort();
    String adminPassword = UUID.randomUUID().toString();
    Map<String, String> env = new LinkedHashMap<>();
    List<String> command = new ArrayList<>();
    for (String word : lines.getFirst()) {
      int eq = word.indexOf('=');
      if (command.isEmpty() && eq > 0 && word.substring(0, eq).matches("[A-Z_]+")) {
        String name = word.substring(0, eq);
        String value = word.substring(eq + 1);
        env.put(name, name.equals("KC_BOOTSTRAP_ADMIN_PASSWORD") ? adminPassword : value);
      } else if (command.isEmpty()) {
        // keycloak-26.7.3/bin/kc.sh: the unpacked distribution of the version the doc names
        command.add(HOME.getParent().resolve(word).toString());
      } else {
        command.add(word.equals(DOC_KEYCLOAK_PORT) ? "--http-port=" + port : word);
      }
    }
    if (!Files.isExecutable(Path.of(command.getFirst()))
        || !command.contains("--http-port=" + port)
        || !env.containsKey("KC_BOOTSTRAP_ADMIN_PASSWORD")) {
      throw new AssertionError(DOC + " (" + BUILD_IT + "): not the kc.sh start-dev line of "
          + HOME.getFileName() + " with " + DOC_KEYCLOAK_PORT + " and an admin password: " + lines);
    }
    command.add("--http-management-port=" + management);
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    pb.environment().put("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64");
    pb.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
    Keycloak kc = new Keycloak(
        pb.start(),
        URI.create("http://127.0.0.1:" + port),
        env.getOrDefault("KC_BOOTSTRAP_ADMIN_USERNAME", "admin"),
        adminPassword);
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
   * Builds the realm promptd's clients log in to with the admin REST calls docs/oauth.md lists
   * (section {@value #BUILD_IT}), read from the doc and made as written, but for promptd's URL
   * ({@code resource}, which access tokens must name in {@code aud}), the pre-registered client's
   * redirect URI and the users' password.
   */
  void createRealm(URI resource, URI preRegisteredRedirect) throws Exception {
    String block = DocCommands.block(DOC, BUILD_IT, "text");
    make(
        AdminCalls.read(block),
        Map.of(
            DOC_RESOURCE,
            resource.toString(),
            DOC_REDIRECT,
            preRegisteredRedirect.toString(),
            "\"value\": \"…\"",
            "\"value\": \"" + PASSWORD + "\""));
  }

  /**
   * Makes {@code calls} in order: each text in {@code replacements} replaced first, then each
   * placeholder by what an earlier call gave back under its name.
   */
  private void make(List<AdminCalls.Call> calls, Map<String, String> replacements)
      throws Exception {
    Map<String, String> named = new LinkedHashMap<>();
    for (AdminCalls.Call call : calls) {
      String path = fill(call.path(), Map.of(), named);
      String body = call.body() == null ? null : fill(call.body(), replacements, named);
      if (path.matches(".*[A-Z]{2}.*") && !path.contains("?type=")) {
        throw new AssertionError(call.method() + " " + call.path() + ": unknown name in " + named);
      }
      if (body != null) {
        JsonCodec.parse(body); // a placeholder left over, or a typo, fails here with its place
      }
      HttpResponse<String> r = admin(call.method(), path, body);
      AdminCalls.Result result = call.result();
      if (result == null) {
        continue;
      }
      if (call.method().equals("POST")) {
        named.put(result.names().getFirst(), created(r));
      } else if (result.fields().isEmpty()) {
        named.put(result.names().getFirst(), r.body().strip());
      } else {
        JsonObject entry = entry((JsonArray) JsonCodec.parse(r.body()), result.where(), call);
        for (int i = 0; i < result.names().size(); i++) {
          named.put(result.names().get(i), entry.string(result.fields().get(i)).orElseThrow());
        }
      }
    }
  }

  private static String fill(
      String text, Map<String, String> replacements, Map<String, String> named) {
    String out = text;
    for (Map.Entry<String, String> e : replacements.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, String> e : named.entrySet()) {
      out = out.replaceAll("\\b" + e.getKey() + "\\b", Matcher.quoteReplacement(e.getValue()));
    }
    return out;
  }

  private static JsonObject entry(
      JsonArray listed, List<List<String>> where, AdminCalls.Call call) {
    for (Json j : listed.elements()) {
      JsonObject o = (JsonObject) j;
      if (where.stream().allMatch(kv -> o.string(kv.get(0)).orElse("").equals(kv.get(1)))) {
        return o;
      }
    }
    throw new AssertionError(
        call.method() + " " + call.path() + ": no entry with " + where + " in " + listed);
  }

  /**
   * docs/oauth.md's {@code promptd serve} line (section {@value #START_PROMPTD}) as written, with
   * this test's port, this Keycloak's issuer and {@code library} for the doc's.
   */
  List<String> promptdServe(int port, Path library) throws Exception {
    List<List<String>> lines =
        DocCommands.commands(DocCommands.block(DOC, START_PROMPTD, "sh"), Map.of());
    List<String> words = lines.getFirst();
    if (lines.size() != 1 || !words.subList(0, 2).equals(List.of("./promptd", "serve"))) {
      throw new AssertionError(
          DOC + " (" + START_PROMPTD + "): one ./promptd serve line: " + lines);
    }
    List<String> args = new ArrayList<>();
    for (String word : words.subList(1, words.size())) {
      args.add(
          switch (word) {
            case "3000" -> String.valueOf(port);
            case "http://127.0.0.1:8080/realms/promptd" -> issuer().toString();
            case "examples/team" -> library.toString();
            default -> word;
          });
    }
    if (!args.contains(String.valueOf(port)) || !args.contains(issuer().toString())) {
      throw new AssertionError(DOC + " (" + START_PROMPTD + "): no --port 3000 or --oauth-issuer"
          + " http://127.0.0.1:8080/realms/promptd in " + words);
    }
    return PromptdServer.cli(args.toArray(String[]::new));
  }

  /** Registers a client of the realm: {@code body} is its JSON, as the admin REST API takes it. */
  void createClient(String body) throws Exception {
    admin("POST", "/admin/realms/" + REALM + "/clients", body);
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

  /** How many clients the realm has (the built-in ones included). */
  int clientCount() throws Exception {
    return ((JsonArray) JsonCodec.parse(
            admin("GET", "/admin/realms/" + REALM + "/clients", null).body()))
        .size();
  }

  /** The admin REST API's answer to {@code GET path} (for checks of what the realm holds). */
  Json get(String path) throws Exception {
    return JsonCodec.parse(admin("GET", path, null).body());
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

  /**
   * An admin token as docs/oauth.md says to get one ({@link #TOKEN_REQUEST}), with this Keycloak's
   * admin user and password for the doc's.
   */
  private String adminToken() throws Exception {
    Matcher m = TOKEN_REQUEST.matcher(Files.readString(DOC));
    if (!m.find()) {
      throw new AssertionError(DOC + " does not say how to get ADMIN_TOKEN: " + TOKEN_REQUEST);
    }
    String form = m.group(2)
        .replace("username=admin&", "username=" + URLEncoder.encode(adminUser, UTF_8) + "&")
        .replace("password=change-me", "password=" + URLEncoder.encode(adminPassword, UTF_8));
    HttpResponse<String> r = HTTP.send(
        HttpRequest.newBuilder(base.resolve(m.group(1)))
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
