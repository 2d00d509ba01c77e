package io.promptd.cli;

import static io.promptd.cli.SkillsServeTest.awaitNotification;
import static io.promptd.cli.SkillsServeTest.request;
import static io.promptd.cli.SkillsServeTest.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.git.GitWebhook;
import io.promptd.git.testing.GitServer;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.testing.McpWire;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --git} against a real Git server ({@code git daemon}, and a {@code file://}
 * repository), with commits pushed by the real {@code git} command: over stdio a push reaches a
 * listening client as {@code notifications/prompts/list_changed} by polling, as does a force-push;
 * over HTTP, with polling off, only a correctly signed {@code POST /hooks/git} fetches, and a
 * client listening over SSE hears of the push.
 */
@Timeout(120)
class GitServeTest {
  private static final String SECRET = "the-webhook-secret-for-tests";
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** Never closed: closing waits for the listening stream, which ends only with the server. */
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir
  Path dir;

  private Map<String, String> env() {
    return Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
  }

  @Test
  void overStdioAPushAndAForcePushReachAListeningClientByPolling() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git")).start()) {
      String first = git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      try (SkillsServeTest.Stdio server = SkillsServeTest.Stdio.start(
          List.of("serve", "--stdio", "--git", git.url() + "#main", "--git-poll", "200ms"),
          env())) {
        assertThat(prompts(server)).contains("\"name\":\"hello\"").doesNotContain("bye");
        listenForPromptChanges(server);

        git.commit("bye", Map.of("bye.prompt.md", "Bye\n"));
        git.push();
        assertThat(awaitNotification(server.out(), "notifications/prompts/list_changed"))
            .as("list_changed after the push")
            .isNotNull();
        assertThat(prompts(server)).contains("\"name\":\"bye\"");

        git.forcePush(first);
        assertThat(awaitNotification(server.out(), "notifications/prompts/list_changed"))
            .as("list_changed after the force-push")
            .isNotNull();
        assertThat(prompts(server)).contains("\"name\":\"hello\"").doesNotContain("bye");

        git.stop(); // the remote away: the last commit stays served
        assertThat(prompts(server)).contains("\"name\":\"hello\"");
      }
    }
  }

  @Test
  void overHttpOnlyASignedWebhookFetchesAndAListeningClientHearsOfIt() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      Path secret = Files.writeString(dir.resolve("secret"), SECRET + "\n");
      List<String> command = SkillsServeTest.java();
      command.addAll(List.of(
          "serve",
          "--http",
          "0",
          "--git",
          git.fileUrl() + "#main",
          "--git-poll",
          "0",
          "--git-webhook-secret-file",
          secret.toString()));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(env());
      Process server = builder.start();
      try {
        URI mcp = URI.create(SkillsServeTest.awaitUrl(server));
        URI hook = mcp.resolve("/hooks/git");
        Poll.ok(mcp.resolve("/readyz"), WAIT);
        assertThat(listPrompts(HTTP, mcp)).contains("\"name\":\"hello\"");
        BlockingQueue<String> notes = listen(HTTP, mcp);
        assertThat(poll(notes)).contains("notifications/subscriptions/acknowledged");

        git.commit("bye", Map.of("bye.prompt.md", "Bye\n"));
        git.push();
        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(UTF_8);
        assertThat(deliver(HTTP, hook, body, null)).isEqualTo(401);
        assertThat(deliver(
                HTTP, hook, body, GitWebhook.sign("not-the-secret-at-all".getBytes(UTF_8), body)))
            .isEqualTo(403);
        assertThat(HTTP.send(
                    HttpRequest.newBuilder(hook).GET().build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode())
            .isEqualTo(405);
        assertThat(listPrompts(HTTP, mcp)).doesNotContain("bye");

        assertThat(deliver(HTTP, hook, body, GitWebhook.sign(SECRET.getBytes(UTF_8), body)))
            .isEqualTo(202);
        assertThat(poll(notes)).contains("notifications/prompts/list_changed");
        assertThat(listPrompts(HTTP, mcp)).contains("\"name\":\"bye\"");
      } finally {
        server.destroy();
        server.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void withoutASecretThereIsNoWebhook() throws Exception {
    try (GitServer git = GitServer.create(dir.resolve("git"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      List<String> command = SkillsServeTest.java();
      command.addAll(List.of("serve", "--http", "0", "--git", git.fileUrl()));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(env());
      builder.environment().remove(GitOptions.WEBHOOK_SECRET_VARIABLE);
      Process server = builder.start();
      try {
        URI mcp = URI.create(SkillsServeTest.awaitUrl(server));
        byte[] body = "{}".getBytes(UTF_8);
        assertThat(deliver(
                HTTP,
                mcp.resolve("/hooks/git"),
                body,
                GitWebhook.sign(SECRET.getBytes(UTF_8), body)))
            .isEqualTo(404);
      } finally {
        server.destroy();
        server.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void anUnreachableRemoteIsLoggedWithoutItsPasswordOrToken() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    StoreCliTest.Result r = StoreCliTest.run(
        List.of("serve", "--stdio", "--git", "https://me:pa55w0rd@127.0.0.1:" + closed + "/p.git"),
        Map.of(
            "XDG_CACHE_HOME",
            dir.resolve("cache").toString(),
            "PROMPTD_GIT_TOKEN",
            "t0ken-in-the-environment"));
    assertThat(r.err())
        .contains("cannot fetch and read https://***@127.0.0.1:" + closed + "/p.git")
        .contains("is not fetched yet; serving nothing (not ready)")
        .doesNotContain("pa55w0rd")
        .doesNotContain("t0ken-in-the-environment");
  }

  @Test
  void aFolderServerLoadsNoJGitAndAGitServerDoes() throws Exception {
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    assertThat(classesLoaded(List.of("serve", "--stdio", dir.toString())))
        .contains("io.promptd.cli.Serve ")
        .doesNotContain("org.eclipse.jgit")
        .doesNotContain("io.promptd.git.");
    try (GitServer git = GitServer.create(dir.resolve("git"))) {
      git.commit("hello", Map.of("hello.prompt.md", "Hello\n"));
      git.push();
      assertThat(classesLoaded(List.of("serve", "--stdio", "--git", git.fileUrl())))
          .contains("org.eclipse.jgit")
          .doesNotContain("org.apache.sshd")
          .doesNotContain("org.bouncycastle");
    }
  }

  /**
   * The classes a {@code promptd} run with {@code args} loads, its stdin closed at once (a stdio
   * server then ends).
   */
  private String classesLoaded(List<String> args) throws Exception {
    Path log = Files.createTempFile(dir, "classes", ".log");
    List<String> command = SkillsServeTest.java();
    command.add(1, "-Xlog:class+load=info:file=" + log);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(env());
    Process p = builder.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS))
        .as("promptd ended with its stdin")
        .isTrue();
    return Files.readString(log);
  }

  static String prompts(SkillsServeTest.Stdio server) {
    return JsonCodec.write(result(server.call(request("prompts/list", ""))));
  }

  /**
   * Opens {@code subscriptions/listen} for prompt list changes over stdio; acknowledged by a
   * notification.
   */
  static void listenForPromptChanges(SkillsServeTest.Stdio server) throws Exception {
    String listen = request(
            "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}")
        .replace("{ID}", "900");
    server.in().write((listen + "\n").getBytes(UTF_8));
    server.in().flush();
    assertThat(awaitNotification(server.out(), "notifications/subscriptions/acknowledged"))
        .isNotNull();
  }

  private static String listPrompts(HttpClient http, URI mcp) throws Exception {
    HttpResponse<String> r = http.send(
        McpWire.post(
                mcp,
                McpWire.modern(1, "prompts/list", "", "git-test"),
                WAIT,
                McpWire.modernHeaders("prompts/list", null))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  /**
   * Opens {@code subscriptions/listen} for prompt list changes over HTTP; what its stream says, one
   * by one.
   */
  private static BlockingQueue<String> listen(HttpClient http, URI mcp) throws Exception {
    String body = McpWire.modern(
        2, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}", "git-test");
    HttpResponse<InputStream> r = http.send(
        McpWire.post(
                mcp,
                body,
                Duration.ofMinutes(2),
                McpWire.modernHeaders("subscriptions/listen", null))
            .build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    McpWire.Events events = McpWire.Events.of(r.body());
    Thread.ofVirtual().start(() -> {
      try {
        for (String data; (data = events.nextData()) != null; ) {
          out.add(data);
        }
      } catch (IOException e) {
        // the stream ended with the server: the test's poll times out and says so
      }
    });
    return out;
  }

  private static String poll(BlockingQueue<String> notes) throws InterruptedException {
    String note = notes.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(note).as("a message on the listening stream within " + WAIT).isNotNull();
    return note;
  }

  private static int deliver(HttpClient http, URI hook, byte[] body, String signature)
      throws Exception {
    HttpRequest.Builder post = HttpRequest.newBuilder(hook)
        .header("Content-Type", "application/json")
        .header("X-GitHub-Event", "push")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (signature != null) {
      post.header("X-Hub-Signature-256", signature);
    }
    return http.send(post.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
