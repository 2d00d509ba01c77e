package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.ManageCalls.Answer;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.ChannelListener;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreUrl;
import io.promptd.store.testing.TestPostgres;
import io.promptd.testing.Poll;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A revert over the management API reaches a client of the label it moves: {@code serve --store
 * --label production --http --manage} with OAuth, a legacy session (2025-06-18) with its GET stream
 * open, and {@code POST /manage/v1/promotions/revert} of a three-file promotion of
 * {@code production}: the client hears {@code notifications/prompts/list_changed} and then gets the
 * versions from before the promotion; the store's channel carries the revert as one {@code NOTIFY}
 * (one transaction), heard before a later move of another label.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class ManageRevertListChangedTest {
  private static final String AUDIENCE = "promptd-manage-revert-list-changed-test";
  private static final String PROMOTE = "promote:production";
  private static final String LEGACY = "2025-06-18";
  private static final Pattern AT = Pattern.compile("on (http://\\S+)/mcp");

  @TempDir
  Path dir;

  private final List<Process> processes = new ArrayList<>();
  private ManageCalls calls;
  private Stream<String> stream;
  private StoreDatabase database;

  @AfterEach
  void stop() throws InterruptedException {
    if (stream != null) {
      stream.close();
    }
    if (database != null) {
      database.close();
    }
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    if (calls != null) {
      calls.close();
    }
  }

  @Test
  void aRevertOverTheApiIsHeardOnceByTheLabelsClients() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    for (String p : List.of("p1", "p2", "p3")) {
      Files.writeString(dir.resolve(p + ".prompt.md"), "First " + p + "\n");
    }
    cli("publish", dir.toString(), "--store", url, "--label", "production");
    for (String p : List.of("p1", "p2", "p3")) {
      Files.writeString(dir.resolve(p + ".prompt.md"), "Second " + p + "\n");
    }
    cli("publish", dir.toString(), "--store", url, "--label", "staging");
    cli("label", "promote", "staging", "production", "--store", url);
    cli("label", "protect", "production", "--scope", PROMOTE, "--store", url);

    calls = ManageCalls.start(AUDIENCE);
    List<String> command = StoreCliTest.java();
    command.addAll(List.of(
        "serve",
        "--store",
        url,
        "--label",
        "production",
        "--http",
        "0",
        "--manage",
        "--manage-scope",
        ManageApiTest.MANAGE,
        "--oauth-issuer",
        calls.issuerUrl(),
        "--oauth-audience",
        AUDIENCE));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    processes.add(server);
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Matcher m = AT.matcher(CliProcessTest.awaitLine(serverErr, " on http://"));
    assertThat(m.find()).isTrue();
    String base = m.group(1);
    Poll.ok(URI.create(base + "/readyz"), Duration.ofSeconds(30)); // the issuer's keys fetched
    String token = calls.token("pat", "prompts " + ManageApiTest.MANAGE + " " + PROMOTE);

    String sid = initialize(base, token);
    LinkedBlockingQueue<String> changed = listen(base, token, sid);
    LinkedBlockingQueue<String> channel = new LinkedBlockingQueue<>();
    CountDownLatch listening = new CountDownLatch(1);
    database = StoreDatabase.open(StoreUrl.parse(url));
    database.listen("promptd_labels", new ChannelListener() {
      @Override
      public void listening(boolean again) {
        listening.countDown();
      }

      @Override
      public void notified(String payload) {
        channel.add(payload);
      }
    });
    assertThat(listening.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(text(base, token, sid, "p2")).contains("Second p2");

    Answer reverted =
        calls.call(base, "POST", "/manage/v1/promotions/revert", token, "{\"promotion\":1}");
    assertThat(reverted.status()).as(reverted.body()).isEqualTo(200);
    assertThat(reverted.body()).startsWith("{\"promotion\":2,").contains("\"reverts\":1,");
    assertThat(changed.poll(60, TimeUnit.SECONDS))
        .as("the revert's list_changed")
        .isNotNull();
    for (String p : List.of("p1", "p2", "p3")) {
      assertThat(text(base, token, sid, p)).contains("First " + p);
    }

    // The store's channel: the revert, then a move of another label as a marker (a listener hears
    // the notifications in commit order), so the revert was one NOTIFY.
    cli("label", "set", "p1", "2", "canary", "--store", url);
    List<String> heard = new ArrayList<>();
    while (heard.isEmpty() || !heard.getLast().equals("canary")) {
      String payload = channel.poll(60, TimeUnit.SECONDS);
      assertThat(payload).as("the channel, after " + heard).isNotNull();
      heard.add(payload);
    }
    assertThat(heard).as("the revert, the marker").containsExactly("production", "canary");
  }

  private static void cli(String... args) throws Exception {
    StoreCliTest.Result r = StoreCliTest.run(List.of(args));
    assertThat(r.status()).as(String.join(" ", args) + ": " + r.err()).isZero();
  }

  /** Opens the session's GET stream; the queue receives each {@code list_changed} sent on it. */
  private LinkedBlockingQueue<String> listen(String base, String token, String sid)
      throws Exception {
    HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Accept", "text/event-stream")
        .header("Authorization", "Bearer " + token)
        .header("Mcp-Session-Id", sid)
        .header("MCP-Protocol-Version", LEGACY)
        .GET()
        .build();
    HttpResponse<Stream<String>> r =
        calls.http().sendAsync(get, HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
    assertThat(r.statusCode()).isEqualTo(200);
    stream = r.body();
    LinkedBlockingQueue<String> changed = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try {
        stream
            .filter(line ->
                line.startsWith("data:") && line.contains("\"notifications/prompts/list_changed\""))
            .forEach(changed::add);
      } catch (RuntimeException e) {
        // the stream closed at the test's end
      }
    });
    return changed;
  }

  private String initialize(String base, String token) throws Exception {
    HttpResponse<String> r = post(
        base,
        token,
        null,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"" + LEGACY + "\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String sid = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(
            post(base, token, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .statusCode())
        .isEqualTo(202);
    return sid;
  }

  private String text(String base, String token, String sid, String name) throws Exception {
    HttpResponse<String> r = post(
        base,
        token,
        sid,
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/get\",\"params\":{\"name\":\"" + name
            + "\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String body = r.body().strip();
    if (!body.startsWith("{")) { // an event stream of one message
      body = body.lines()
          .filter(l -> l.startsWith("data:"))
          .map(l -> l.substring(5).strip())
          .reduce("", String::concat);
    }
    return JsonCodec.write(((JsonObject) JsonCodec.parse(body)).object("result").orElseThrow());
  }

  private HttpResponse<String> post(String base, String token, String sid, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sid != null) {
      b.header("Mcp-Session-Id", sid).header("MCP-Protocol-Version", LEGACY);
    }
    return calls.http().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
