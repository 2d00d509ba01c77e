package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.testing.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several labels on one server and a label move reaching clients on other replicas, against a real
 * PostgreSQL: {@code serve --store URL --label production --label staging --http} serves production
 * on {@code /mcp} and staging on {@code /labels/staging/mcp}; a second process serves staging
 * alone; {@code promptd label set} (a process of its own) reaches the watchers of staging on both
 * replicas and not the watcher of production.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(240)
class LabelPathsCliTest {
  private static final Pattern AT = Pattern.compile("on (http://\\S+/mcp)");

  @TempDir
  Path dir;

  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void eachLabelOnItsPathAndAMoveReachesItsListenersOnEveryReplica() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello one\n");
    assertThat(publish(url, "production").status()).isZero();
    assertThat(label(url, "set", "hello", "1", "staging").status()).isZero();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello two\n");
    Files.writeString(dir.resolve("extra.prompt.md"), "Extra\n");
    assertThat(publish(url, null).status()).isZero();

    LinkedBlockingQueue<String> bothErr = serve(url, "production", "staging");
    String production = url(CliProcessTest.awaitLine(bothErr, "prompt(s) on http://"));
    String stagingLine = CliProcessTest.awaitLine(bothErr, "serving label staging");
    assertThat(stagingLine).contains("(1 prompt(s))");
    String staging = url(stagingLine);
    assertThat(staging).isEqualTo(production.replace("/mcp", "/labels/staging/mcp"));
    String replica = url(CliProcessTest.awaitLine(serve(url, "staging"), "prompt(s) on http://"));

    assertThat(get(production)).contains("Hello one");
    assertThat(get(staging)).contains("Hello one");
    // A legacy session (kept in the store, signed with its secret) belongs to the path that opened
    // it.
    String sid = initialize(production);
    assertThat(list(production, sid).statusCode()).isEqualTo(200);
    assertThat(list(staging, sid).statusCode()).isEqualTo(404);
    assertThat(list(staging, initialize(staging)).body()).contains("hello");
    LinkedBlockingQueue<String> atProduction = watch(production);
    LinkedBlockingQueue<String> atStaging = watch(staging);
    LinkedBlockingQueue<String> atReplica = watch(replica);

    Result moved = label(url, "set", "hello", "2", "staging");
    assertThat(moved.status()).as(moved.err()).isZero();
    CliProcessTest.awaitLine(atStaging, "prompts changed: 1 prompt(s)");
    CliProcessTest.awaitLine(atReplica, "prompts changed: 1 prompt(s)");
    assertThat(get(staging)).contains("Hello two");
    assertThat(get(replica)).contains("Hello two");
    assertThat(get(production)).contains("Hello one");

    // production's first list_changed must be this move's (2 prompts), not one for staging's.
    assertThat(label(url, "set", "extra", "1", "production").status()).isZero();
    assertThat(CliProcessTest.awaitLine(atProduction, "prompts changed"))
        .contains("prompts changed: 2 prompt(s)");
    assertThat(get(production)).contains("Hello one");
  }

  private Result publish(String url, String label) throws Exception {
    List<String> args = new ArrayList<>(List.of("publish", dir.toString(), "--store", url));
    if (label != null) {
      args.addAll(List.of("--label", label));
    }
    return StoreCliTest.run(args);
  }

  private static Result label(String url, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("label"));
    all.addAll(List.of(args));
    all.addAll(List.of("--store", url));
    return StoreCliTest.run(all);
  }

  private static String get(String at) throws Exception {
    Result r = StoreCliTest.run(List.of("get", "hello", "--url", at));
    assertThat(r.status()).as(r.err()).isZero();
    return r.out();
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Opens a legacy session at {@code at}; returns its id. */
  private static String initialize(String at) throws Exception {
    HttpResponse<String> r = post(
        at,
        null,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String sid = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(post(at, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .statusCode())
        .isEqualTo(202);
    return sid;
  }

  private static HttpResponse<String> list(String at, String sid) throws Exception {
    return post(at, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}");
  }

  private static HttpResponse<String> post(String at, String sid, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(at))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sid != null) {
      b.header("Mcp-Session-Id", sid).header("MCP-Protocol-Version", "2025-06-18");
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String url(String line) {
    Matcher m = AT.matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return m.group(1);
  }

  /**
   * A {@code promptd serve --store --http 0} process serving {@code labels}; its stderr's lines.
   */
  private LinkedBlockingQueue<String> serve(String url, String... labels) throws Exception {
    List<String> command = StoreCliTest.java();
    command.addAll(List.of("serve", "--store", url, "--http", "0"));
    for (String l : labels) {
      command.addAll(List.of("--label", l));
    }
    Process p = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    processes.add(p);
    return CliProcessTest.lines(p.getErrorStream());
  }

  /** A {@code promptd watch} process on {@code at}, watching; its stdout's lines. */
  private LinkedBlockingQueue<String> watch(String at) throws Exception {
    List<String> command = StoreCliTest.java();
    command.addAll(List.of("watch", "--url", at));
    Process p = new ProcessBuilder(command).start();
    processes.add(p);
    LinkedBlockingQueue<String> out = CliProcessTest.lines(p.getInputStream());
    CliProcessTest.lines(p.getErrorStream());
    CliProcessTest.awaitLine(out, "watching");
    return out;
  }
}
