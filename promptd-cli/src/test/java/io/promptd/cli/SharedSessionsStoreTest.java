package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.store.testing.TestPostgres;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real {@code promptd serve --http --store} processes, no {@code --session-secret}: the store
 * gives them one secret and one session table, so a legacy session started on one is served by the
 * other, a subscription made on one reaches the stream held on the other, and a DELETE on one ends
 * the session on both.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(120)
class SharedSessionsStoreTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir
  Path dir;

  @Test
  void aLegacySessionIsOneSessionOnEveryReplica() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: hi\n---\nHello\n");
    Files.writeString(
        dir.resolve("notes.resource.md"), "---\nuri: docs://notes\ndescription: n\n---\nv1\n");
    assertThat(run(List.of("publish", dir.toString(), "--store", url))).isZero();
    List<Process> replicas = new ArrayList<>();
    try {
      URI a = start(url, replicas);
      URI b = start(url, replicas);
      HttpResponse<String> init = post(
          a,
          null,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
              + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
      String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      assertThat(post(b, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
              .statusCode())
          .isEqualTo(202);
      HttpResponse<String> list =
          post(b, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}");
      assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
      assertThat(list.body()).contains("\"hello\"");
      // The stream is held by B; the subscription is made on A; the change is published from
      // elsewhere.
      BlockingQueue<String> events = stream(b, session);
      HttpResponse<String> sub = post(
          a,
          session,
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/subscribe\","
              + "\"params\":{\"uri\":\"docs://notes\"}}");
      assertThat(sub.statusCode()).as(sub.body()).isEqualTo(200);
      assertThat(post(
                  a,
                  session,
                  "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"logging/setLevel\","
                      + "\"params\":{\"level\":\"error\"}}")
              .statusCode())
          .isEqualTo(200);
      Files.writeString(
          dir.resolve("notes.resource.md"), "---\nuri: docs://notes\ndescription: n\n---\nv2\n");
      assertThat(run(List.of("publish", dir.toString(), "--store", url))).isZero();
      String updated = awaitEvent(events, "notifications/resources/updated");
      assertThat(updated).contains("docs://notes");
      // DELETE on B ends the session for A too.
      HttpResponse<String> delete = HTTP.send(
          HttpRequest.newBuilder(b)
              .header("Mcp-Session-Id", session)
              .header("MCP-Protocol-Version", "2025-06-18")
              .DELETE()
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(delete.statusCode()).isIn(200, 202, 204);
      HttpResponse<String> after =
          post(a, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/list\"}");
      assertThat(after.statusCode()).as(after.body()).isEqualTo(404);
    } finally {
      for (Process p : replicas) {
        p.destroy();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      }
    }
  }

  private static URI start(String url, List<Process> replicas) throws Exception {
    List<String> command = java();
    command.addAll(List.of("serve", "--http", "0", "--store", url));
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().remove("PROMPTD_SESSION_SECRET");
    Process server = pb.start();
    replicas.add(server);
    LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
    Matcher m =
        Pattern.compile("on (http://\\S+)").matcher(CliProcessTest.awaitLine(err, " on http://"));
    assertThat(m.find()).isTrue();
    return URI.create(m.group(1));
  }

  private static HttpResponse<String> post(URI uri, String session, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The session's GET stream on {@code uri}: its data lines. */
  private static BlockingQueue<String> stream(URI uri, String session) throws Exception {
    HttpResponse<InputStream> r = HTTP.send(
        HttpRequest.newBuilder(uri)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", "2025-06-18")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("data:")) {
            events.add(line);
          }
        }
      } catch (IOException e) {
        // the stream ended with the replica
      }
    });
    return events;
  }

  private static String awaitEvent(BlockingQueue<String> events, String method)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      String e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      assertThat(e).as("an event " + method).isNotNull();
      if (e.contains(method)) {
        return e;
      }
    }
  }

  private static List<String> java() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    return command;
  }

  private static int run(List<String> args) throws Exception {
    List<String> command = java();
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().remove("PROMPTD_STORE");
    Process p = builder.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }
}
