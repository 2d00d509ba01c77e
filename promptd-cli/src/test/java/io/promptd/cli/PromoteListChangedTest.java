package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.ChannelListener;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreUrl;
import io.promptd.store.testing.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code promptd label promote} of a 12-file release reaches a client of {@code serve --store
 * --label production --http} as one {@code notifications/prompts/list_changed}: a legacy session
 * (protocol 2025-06-18) with its GET stream open counts them, between a label move before and one
 * after, each of which is one notification too. A server's feed wakes on a notification and
 * compares versions, so several quick transactions could also reach a client as one
 * {@code list_changed}; the test therefore also listens on the store's channel itself and hears the
 * promotion as one {@code NOTIFY} (one transaction), where twelve {@code label set}s would be
 * twelve.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class PromoteListChangedTest {
  private static final int FILES = 12;
  private static final String LEGACY = "2025-06-18";
  private static final Pattern AT = Pattern.compile("on (http://\\S+/mcp)");

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<Process> processes = new ArrayList<>();
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
  }

  @Test
  void aTwelveFilePromotionIsOneListChanged() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    for (int i = 1; i <= FILES; i++) {
      Files.writeString(dir.resolve(String.format("p%02d.prompt.md", i)), "First " + i + "\n");
    }
    cli("publish", dir.toString(), "--store", url, "--label", "production");
    for (int i = 1; i <= FILES; i++) {
      Files.writeString(dir.resolve(String.format("p%02d.prompt.md", i)), "Second " + i + "\n");
    }
    cli("publish", dir.toString(), "--store", url, "--label", "staging");

    List<String> command = StoreCliTest.java();
    command.addAll(List.of("serve", "--store", url, "--label", "production", "--http", "0"));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    processes.add(server);
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Matcher m = AT.matcher(CliProcessTest.awaitLine(serverErr, "prompt(s) on http://"));
    assertThat(m.find()).isTrue();
    String at = m.group(1);
    String sid = initialize(at);
    LinkedBlockingQueue<String> changed = listen(at, sid);
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

    // A move before: the stream is live, and one move is one notification.
    cli("label", "rm", "p12", "production", "--store", url);
    assertThat(changed.poll(60, TimeUnit.SECONDS)).as("the move before").isNotNull();
    assertThat(prompts(at, sid)).isEqualTo(FILES - 1);

    Result promoted = cli("label", "promote", "staging", "production", "--store", url);
    assertThat(promoted.out()).contains("promoted 'staging' to 'production': 12 file(s) moved");
    assertThat(changed.poll(60, TimeUnit.SECONDS)).as("the promotion").isNotNull();
    assertThat(prompts(at, sid)).isEqualTo(FILES);
    assertThat(text(at, sid, "p05")).contains("Second 5");

    // A move after. Notifications come in the order the store's transactions committed, so any
    // further one of the promotion's would come before this move's.
    cli("label", "rm", "p01", "production", "--store", url);
    int after = 0;
    while (prompts(at, sid) != FILES - 1) {
      assertThat(changed.poll(60, TimeUnit.SECONDS)).as("the move after").isNotNull();
      after++;
    }
    if (after == 0) {
      assertThat(changed.poll(60, TimeUnit.SECONDS)).as("the move after").isNotNull();
      after++;
    }
    assertThat(after).as("notifications after the promotion's first").isEqualTo(1);
    assertThat(changed).as("nothing else heard").isEmpty();

    // The store's own channel: a move of another label last, so that everything before it has
    // been heard when it is (a listener hears the notifications in commit order).
    cli("label", "set", "p01", "2", "canary", "--store", url);
    List<String> heard = new ArrayList<>();
    while (heard.isEmpty() || !heard.getLast().equals("canary")) {
      String payload = channel.poll(60, TimeUnit.SECONDS);
      assertThat(payload).as("the channel, after " + heard).isNotNull();
      heard.add(payload);
    }
    assertThat(heard)
        .as("the move before, the promotion, the move after, the marker")
        .containsExactly("production", "production", "production", "canary");
  }

  private static Result cli(String... args) throws Exception {
    Result r = StoreCliTest.run(List.of(args));
    assertThat(r.status()).as(String.join(" ", args) + ": " + r.err()).isZero();
    return r;
  }

  /**
   * Opens the session's GET stream; the queue receives each {@code list_changed} sent on it. The
   * stream is open once its headers arrive.
   */
  private LinkedBlockingQueue<String> listen(String at, String sid) throws Exception {
    HttpRequest get = HttpRequest.newBuilder(URI.create(at))
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", sid)
        .header("MCP-Protocol-Version", LEGACY)
        .GET()
        .build();
    HttpResponse<Stream<String>> r =
        http.sendAsync(get, HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
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

  private String initialize(String at) throws Exception {
    HttpResponse<String> r = post(
        at,
        null,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"" + LEGACY + "\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String sid = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(post(at, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .statusCode())
        .isEqualTo(202);
    return sid;
  }

  private int prompts(String at, String sid) throws Exception {
    JsonObject result =
        result(post(at, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}"));
    return result.array("prompts").orElseThrow().size();
  }

  private String text(String at, String sid, String name) throws Exception {
    return result(post(
            at,
            sid,
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/get\",\"params\":{\"name\":\""
                + name + "\"}}"))
        .toString();
  }

  private static JsonObject result(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String body = r.body().strip();
    if (!body.startsWith("{")) { // an event stream of one message
      body = body.lines()
          .filter(l -> l.startsWith("data:"))
          .map(l -> l.substring(5).strip())
          .reduce("", String::concat);
    }
    return ((JsonObject) JsonCodec.parse(body)).object("result").orElseThrow();
  }

  private HttpResponse<String> post(String at, String sid, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(at))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sid != null) {
      b.header("Mcp-Session-Id", sid).header("MCP-Protocol-Version", LEGACY);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
