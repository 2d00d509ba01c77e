package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-prompt access end to end: {@code promptd serve} as an OAuth resource server over a library
 * whose {@code admin/} folder requires the {@code admin} scope, tokens signed by a real
 * authorization server ({@code mock-oauth2-server}) for two people. Each sees only their view —
 * list, get, complete, resources, list_changed — and a hidden prompt answers exactly like an
 * unknown one (a skill too, in each of its forms); a legacy session belongs to the subject that
 * opened it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScopedAccessTest {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @TempDir
  Path dir;

  private MockOAuth2Server issuer;
  private Process server;
  private Path library;
  private URI endpoint;
  private String alice;
  private String bob;
  private int nextId = 1;

  @BeforeEach
  void start() throws Exception {
    library = Files.createDirectories(dir.resolve("lib"));
    Files.writeString(library.resolve("hello.prompt.md"), """
        ---
        description: Say hello.
        arguments:
          - name: who
            enum: [world, team]
        ---
        Hello {{who}}!
        """, UTF_8);
    Path admin = Files.createDirectories(library.resolve("admin"));
    Files.writeString(admin.resolve("_folder.yaml"), "scopes: [admin]\n", UTF_8);
    Files.writeString(admin.resolve("deploy.prompt.md"), """
        ---
        description: Deploy the service.
        arguments:
          - name: env
            enum: [staging, production]
        ---
        Deploy to {{env}} following the runbook.
        ::: resource runbook.md
        """, UTF_8);
    Files.writeString(admin.resolve("runbook.md"), "1. Page the on-call.\n", UTF_8);

    issuer = new MockOAuth2Server();
    issuer.start();
    int port = Peers.freePort();
    endpoint = Peers.mcpUrl(port);
    alice = issuer
        .issueToken("team", "alice", endpoint.toString(), Map.of("scope", "prompts"), 3600)
        .serialize();
    bob = issuer
        .issueToken("team", "bob", endpoint.toString(), Map.of("scope", "prompts admin"), 3600)
        .serialize();
    List<String> command = new ArrayList<>(PromptdServer.httpCommand(library, port));
    command.addAll(List.of(
        "--oauth-issuer",
        issuer.issuerUrl("team").toString(),
        "--oauth-scopes",
        "prompts",
        "--access-log",
        dir.resolve("access.jsonl").toString()));
    server = Peers.startHttp(command, port);
    // The server fetches the issuer's keys in the background after start-up.
    Poll.ok(URI.create("http://127.0.0.1:" + port + "/readyz"), Duration.ofSeconds(60));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (issuer != null) {
      issuer.shutdown();
    }
  }

  @Test
  void eachCallerSeesOnlyTheirView() throws Exception {
    assertThat(names(modern(alice, "prompts/list", null, "{}"))).containsExactly("hello");
    assertThat(names(modern(bob, "prompts/list", null, "{}")))
        .containsExactly("admin-deploy", "hello");
    assertThat(result(modern(alice, "prompts/list", null, "{}")).string("cacheScope"))
        .hasValue("private");

    HttpResponse<String> hidden = modern(
        alice, "prompts/get", "admin-deploy", "{\"name\":\"admin-deploy\",\"arguments\":{}}");
    HttpResponse<String> unknown =
        modern(alice, "prompts/get", "nope", "{\"name\":\"nope\",\"arguments\":{}}");
    assertThat(hidden.statusCode()).isEqualTo(unknown.statusCode());
    assertThat(errorWithout(hidden, "admin-deploy")).isEqualTo(errorWithout(unknown, "nope"));
    assertThat(modern(
                bob,
                "prompts/get",
                "admin-deploy",
                "{\"name\":\"admin-deploy\",\"arguments\":{\"env\":\"staging\"}}")
            .body())
        .contains("Deploy to staging");

    String completeDeploy = "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"admin-deploy\"},"
        + "\"argument\":{\"name\":\"env\",\"value\":\"st\"}}";
    String completeNope = completeDeploy.replace("\"admin-deploy\"", "\"nope\"");
    assertThat(errorWithout(
            modern(alice, "completion/complete", "admin-deploy", completeDeploy), "admin-deploy"))
        .isEqualTo(
            errorWithout(modern(alice, "completion/complete", "nope", completeNope), "nope"));
    assertThat(
            modern(bob, "completion/complete", "admin-deploy", completeDeploy).body())
        .contains("staging");

    List<String> bobsResources = uris(modern(bob, "resources/list", null, "{}"));
    assertThat(bobsResources).anyMatch(u -> u.endsWith("admin/runbook.md"));
    String runbook = bobsResources.stream()
        .filter(u -> u.endsWith("admin/runbook.md"))
        .findFirst()
        .orElseThrow();
    assertThat(uris(modern(alice, "resources/list", null, "{}"))).doesNotContain(runbook);
    String read = "{\"uri\":\"" + runbook + "\"}";
    String missing = "{\"uri\":\"" + runbook.replace("runbook", "nothing") + "\"}";
    assertThat(errorWithout(modern(alice, "resources/read", runbook, read), runbook))
        .isEqualTo(errorWithout(
            modern(alice, "resources/read", runbook.replace("runbook", "nothing"), missing),
            runbook.replace("runbook", "nothing")));
    assertThat(modern(bob, "resources/read", runbook, read).body()).contains("Page the on-call");
  }

  /**
   * A skill in the scoped folder, through OAuth tokens: hidden from alice in every form it is
   * served in (the extension's list and get, its files as resources, its prompt), each answer the
   * same as for one that does not exist; bob, who holds the scope, gets all of them.
   */
  @Test
  void aScopedSkillIsHiddenInEveryFormItIsServedIn() throws Exception {
    Path skill = Files.createDirectories(library.resolve("admin/oncall"));
    // The supporting file first: the skill is read whole when its SKILL.md appears.
    Files.writeString(skill.resolve("notes.md"), "Check the dashboards.\n", UTF_8);
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: oncall\ndescription: Hands the pager over.\n---\nRead notes.md.\n",
        UTF_8);
    String uri = "skill://admin/oncall/SKILL.md";
    String notes = "skill://admin/oncall/notes.md";
    Poll.await(Duration.ofSeconds(30), Duration.ofMillis(50), "bob sees the new skill", () -> {
      try {
        return modern(bob, "skills/list", null, "{}").body().contains(uri);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertThat(result(modern(alice, "skills/list", null, "{}")).array("skills").orElseThrow())
        .isEqualTo(new JsonArray(List.of()));
    String get = "{\"uri\":\"" + uri + "\"}";
    String none = "skill://admin/nobody/SKILL.md";
    assertThat(errorWithout(modern(alice, "skills/get", uri, get), uri))
        .isEqualTo(
            errorWithout(modern(alice, "skills/get", none, "{\"uri\":\"" + none + "\"}"), none));
    assertThat(modern(bob, "skills/get", uri, get).body()).contains("\"name\":\"oncall\"");

    assertThat(every(bob, "resources/list", "resources", "uri")).contains(uri, notes);
    assertThat(every(alice, "resources/list", "resources", "uri")).doesNotContain(uri, notes);
    String gone = "skill://admin/oncall/gone.md";
    assertThat(errorWithout(
            modern(alice, "resources/read", notes, "{\"uri\":\"" + notes + "\"}"), notes))
        .isEqualTo(errorWithout(
            modern(alice, "resources/read", gone, "{\"uri\":\"" + gone + "\"}"), gone));

    assertThat(every(alice, "prompts/list", "prompts", "name")).containsExactly("hello");
    assertThat(every(bob, "prompts/list", "prompts", "name"))
        .containsExactly("admin-deploy", "admin-oncall", "hello");
    assertThat(errorWithout(
            modern(alice, "prompts/get", "admin-oncall", "{\"name\":\"admin-oncall\"}"),
            "admin-oncall"))
        .isEqualTo(
            errorWithout(modern(alice, "prompts/get", "nope", "{\"name\":\"nope\"}"), "nope"));
    assertThat(modern(bob, "prompts/get", "admin-oncall", "{\"name\":\"admin-oncall\"}")
            .body())
        .contains("Read notes.md.");
  }

  @Test
  void listChangedReachesOnlyCallersWhoMaySeeTheChange() throws Exception {
    Listener aliceHears = listen(alice);
    Listener bobHears = listen(bob);
    Files.writeString(library.resolve("admin/deploy.prompt.md"), """
        ---
        description: Deploy the service, carefully.
        ---
        Deploy.
        """, UTF_8);
    assertThat(bobHears.next())
        .as("bob may see deploy: told of its change")
        .contains("list_changed");
    Files.writeString(
        library.resolve("hello.prompt.md"), "---\ndescription: Say hi.\n---\nHi!\n", UTF_8);
    assertThat(aliceHears.next())
        .as("alice is told of the change she may see")
        .contains("list_changed");
    assertThat(bobHears.next()).contains("list_changed");
    assertThat(aliceHears.received())
        .as("alice heard nothing of the hidden prompt's change (it came first)")
        .isEqualTo(1);
  }

  @Test
  void aLegacySessionBelongsToItsSubject() throws Exception {
    HttpResponse<String> init = legacy(
        alice,
        null,
        "initialize",
        "{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
    assertThat(init.statusCode()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    HttpResponse<String> own = legacy(alice, session, "prompts/list", "{}");
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(own.body()).contains("hello").doesNotContain("admin-deploy");
    HttpResponse<String> stolen = legacy(bob, session, "prompts/list", "{}");
    HttpResponse<String> unknown = legacy(bob, "no-such-session", "prompts/list", "{}");
    assertThat(stolen.statusCode()).isEqualTo(404);
    assertThat(stolen.body()).isEqualTo(unknown.body());

    // The access log names each request's subject, and never a token.
    Path log = dir.resolve("access.jsonl");
    Poll.until(
        Duration.ofSeconds(30),
        Duration.ofMillis(50),
        () -> "bob's request in " + log, // a background writer
        () -> Files.exists(log) && Files.readString(log, UTF_8).contains("\"subject\":\"bob\""));
    List<JsonObject> lines = Files.readAllLines(log, UTF_8).stream()
        .map(l -> (JsonObject) JsonCodec.parse(l))
        .toList();
    assertThat(lines)
        .anyMatch(l -> l.string("subject").equals(Optional.of("alice"))
            && l.string("method").equals(Optional.of("initialize")));
    assertThat(lines).anyMatch(l -> l.string("subject").equals(Optional.of("bob")));
    assertThat(Files.readString(log, UTF_8))
        .doesNotContain(alice)
        .doesNotContain(bob)
        .doesNotContain(session);
  }

  private HttpResponse<String> modern(String token, String method, String name, String params)
      throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    String p = params.equals("{}")
        ? "{" + meta + "}"
        : params.substring(0, params.length() - 1) + "," + meta + "}";
    HttpRequest.Builder b = request(token)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method)
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + nextId++
            + ",\"method\":\"" + method + "\",\"params\":" + p + "}"));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> legacy(String token, String session, String method, String params)
      throws Exception {
    HttpRequest.Builder b = request(token)
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + nextId++
            + ",\"method\":\"" + method + "\",\"params\":" + params + "}"));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String token) {
    return HttpRequest.newBuilder(endpoint)
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + token);
  }

  /**
   * A 2026-07-28 {@code subscriptions/listen} for prompt list changes, its events read in the
   * background.
   */
  private Listener listen(String token) throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    HttpRequest r = request(token)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "subscriptions/listen")
        .timeout(Duration.ofSeconds(170))
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + nextId++
            + ",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":{\"promptsListChanged\":true},"
            + meta + "}}"))
        .build();
    HttpResponse<InputStream> response = HTTP.send(r, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    Listener l = new Listener(response.body());
    assertThat(l.next())
        .as("acknowledged before anything changes")
        .contains("subscriptions/acknowledged");
    return l;
  }

  /** The events of one SSE stream, as they arrive. */
  private static final class Listener {
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private int received;

    Listener(InputStream body) {
      Thread.ofVirtual().start(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            if (line.startsWith("data:") && line.length() > 5) {
              events.add(line.substring(5).trim());
            }
          }
        } catch (IOException e) {
          // the stream ended with the test
        }
      });
    }

    String next() throws InterruptedException {
      String e = events.poll(60, TimeUnit.SECONDS);
      assertThat(e).as("an event within 60 s").isNotNull();
      if (e.contains("list_changed")) {
        received++;
      }
      return e;
    }

    int received() {
      return received
          + (int) events.stream().filter(e -> e.contains("list_changed")).count();
    }
  }

  private static JsonObject result(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return ((JsonObject) JsonCodec.parse(r.body()))
        .object("result")
        .orElseThrow(() -> new AssertionError(r.body()));
  }

  /** {@code key} of every item of a listing, across its pages (the server's pages hold two). */
  private List<String> every(String token, String method, String items, String key)
      throws Exception {
    List<String> out = new ArrayList<>();
    String cursor = null;
    do {
      JsonObject page = result(
          modern(token, method, null, cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}"));
      out.addAll(strings(page.array(items).orElseThrow(), key));
      cursor = page.string("nextCursor").orElse(null);
    } while (cursor != null);
    return out;
  }

  private static List<String> names(HttpResponse<String> r) {
    return strings(result(r).array("prompts").orElseThrow(), "name");
  }

  private static List<String> uris(HttpResponse<String> r) {
    return strings(result(r).array("resources").orElseThrow(), "uri");
  }

  private static List<String> strings(JsonArray items, String key) {
    List<String> out = new ArrayList<>();
    for (Json item : items.elements()) {
      out.add(((JsonObject) item).string(key).orElseThrow());
    }
    return out;
  }

  /**
   * The error object of a response with the asked-for name blanked out, so that two answers
   * compare.
   */
  private static String errorWithout(HttpResponse<String> r, String name) {
    JsonObject error = ((JsonObject) JsonCodec.parse(r.body()))
        .object("error")
        .orElseThrow(() -> new AssertionError("an error: " + r.body()));
    return r.statusCode() + " " + JsonCodec.write(error).replace(name, "NAME");
  }
}
