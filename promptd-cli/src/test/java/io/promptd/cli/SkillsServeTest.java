package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve} on a folder of prompts and skills side by side, over stdio and HTTP, as a
 * 2026-07-28 client of the Skills extension sees it: the capability, the listing, one skill, every
 * file read back with the digest and size its manifest gives, and a resources list change after a
 * skill is edited.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SkillsServeTest {
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  @TempDir
  Path dir;

  private void writeFolder() throws Exception {
    write(
        "hello.prompt.md",
        "---\nname: hello\ndescription: Says hello.\n---\nHello\n".getBytes(UTF_8));
    write(
        "ops/review/SKILL.md",
        "---\nname: review\ndescription: Reviews.\nlicense: MIT\n---\nRead references/guide.md\n"
            .getBytes(UTF_8));
    write("ops/review/references/guide.md", "guide\n".getBytes(UTF_8));
    write("ops/review/assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xfe, 0});
  }

  private void write(String relative, byte[] content) throws Exception {
    Path p = dir.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.write(p, content);
  }

  @Test
  void overStdioTheSkillIsListedGotReadAndAnEditIsAnnounced() throws Exception {
    writeFolder();
    try (Stdio server = Stdio.start(List.of("serve", "--stdio", dir.toString()))) {
      verifyAll(server::call);
      server.listenForResourceChanges();
      write(
          "ops/review/SKILL.md",
          "---\nname: review\ndescription: Reviews.\nlicense: MIT\n---\nEdited\n".getBytes(UTF_8));
      assertThat(awaitNotification(server.out(), "notifications/resources/list_changed"))
          .as("notifications/resources/list_changed after the edit")
          .isNotNull();
    }
  }

  /**
   * A {@code promptd} process spoken to over stdio as a 2026-07-28 client: requests answered one at
   * a time, what the server writes read in the background into {@link #out}.
   */
  record Stdio(Process process, OutputStream in, BlockingQueue<JsonObject> out, int[] id)
      implements AutoCloseable {
    /** Starts {@code promptd} with {@code args} (which name the stdio transport). */
    static Stdio start(List<String> args) throws IOException {
      return start(args, Map.of());
    }

    /** Starts {@code promptd} with {@code args}, with {@code env} added to the environment. */
    static Stdio start(List<String> args, Map<String, String> env) throws IOException {
      return start(List.of(), args, env);
    }

    /**
     * Starts {@code promptd} with {@code jvmOptions} given to {@code java} and {@code args}, with
     * {@code env} added.
     */
    static Stdio start(List<String> jvmOptions, List<String> args, Map<String, String> env)
        throws IOException {
      List<String> command = java();
      command.addAll(1, jvmOptions);
      command.addAll(args);
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(env);
      Process server = builder.start();
      BlockingQueue<JsonObject> out = new LinkedBlockingQueue<>();
      Thread.ofVirtual().start(() -> {
        try (BufferedReader r =
            new BufferedReader(new InputStreamReader(server.getInputStream(), UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) {
            out.add((JsonObject) JsonCodec.parse(line));
          }
        } catch (IOException e) {
          // the server went away; the test's polls time out and say so
        }
      });
      return new Stdio(server, server.getOutputStream(), out, new int[] {0});
    }

    /**
     * Sends {@code body} (made by {@link #request}) with the next id and waits for its response.
     */
    JsonObject call(String body) {
      try {
        int n = ++id[0];
        in.write((body.replace("{ID}", String.valueOf(n)) + "\n").getBytes(UTF_8));
        in.flush();
        return awaitResponse(out, n);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    /**
     * Opens {@code subscriptions/listen} for resource list changes; it stays open, so it is sent
     * without waiting for an answer, and acknowledged by a notification.
     */
    void listenForResourceChanges() throws Exception {
      in.write(("{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"subscriptions/listen\",\"params\":{"
              + "\"notifications\":{\"resourcesListChanged\":true}," + META + "}}\n")
          .getBytes(UTF_8));
      in.flush();
      assertThat(awaitNotification(out, "notifications/subscriptions/acknowledged"))
          .isNotNull();
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void overHttpTheSkillIsListedGotAndEveryFileMatchesItsManifest() throws Exception {
    writeFolder();
    overHttp(List.of(), SkillsServeTest::verifyAll);
  }

  @Test
  void withNoSkillPromptsTheSkillIsServedButOfferedAsNoPrompt() throws Exception {
    writeFolder();
    overHttp(List.of("--no-skill-prompts"), call -> {
      String prompts = JsonCodec.write(result(call.apply(request("prompts/list", ""))));
      assertThat(prompts).contains("\"name\":\"hello\"").doesNotContain("ops-review");
      assertThat(JsonCodec.write(result(call.apply(request("skills/list", "")))))
          .contains("skill://ops/review/SKILL.md");
    });
  }

  @Test
  void aSkillFilesBudgetOfZeroLinksTheSkillsFilesInItsPrompt() throws Exception {
    writeFolder();
    overHttp(List.of("--skill-files-budget", "0"), call -> {
      JsonObject rendered = result(call.apply(request("prompts/get", "\"name\":\"ops-review\"")));
      assertThat(JsonCodec.write(rendered))
          .contains("{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://ops/review/SKILL.md\"")
          .contains(
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/review/references/guide.md\"")
          .doesNotContain("\"text\":\"guide\\n\"");
    });
  }

  /** What {@code check} does with a call function, sent to a {@code serve --http} of the folder. */
  private interface Check {
    void run(Function<String, JsonObject> call) throws Exception;
  }

  private void overHttp(List<String> options, Check check) throws Exception {
    List<String> command = java();
    command.addAll(List.of("serve", "--http", "0", "--no-watch"));
    command.addAll(options);
    command.add(dir.toString());
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try (HttpClient http = HttpClient.newHttpClient()) {
      String url = awaitUrl(server);
      int[] id = {0};
      check.run(body -> {
        String json = body.replace("{ID}", String.valueOf(++id[0]));
        JsonObject request = (JsonObject) JsonCodec.parse(json);
        String method = request.string("method").orElseThrow();
        HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(json));
        request
            .object("params")
            .flatMap(p -> p.string("uri").or(() -> p.string("name")))
            .ifPresent(u -> post.header("Mcp-Name", u));
        try {
          String text =
              http.send(post.build(), HttpResponse.BodyHandlers.ofString()).body();
          return (JsonObject) JsonCodec.parse(text.startsWith("{") ? text : sseData(text));
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
    } finally {
      server.destroy();
      server.waitFor(20, TimeUnit.SECONDS);
    }
  }

  /**
   * The capability, skills/list, skills/get, an unknown skill, and every listed file read back and
   * checked.
   */
  private static void verifyAll(Function<String, JsonObject> call) throws Exception {
    JsonObject discover = result(call.apply(request("server/discover", "")));
    assertThat(JsonCodec.write(discover.object("capabilities").orElseThrow()))
        .contains("\"extensions\":{\"io.modelcontextprotocol/skills\":{\"directoryRead\":true}}");
    JsonObject root =
        result(call.apply(request("resources/directory/read", "\"uri\":\"skill://ops/review\"")));
    assertThat(JsonCodec.write(root.array("resources").orElseThrow()))
        .contains(
            "\"uri\":\"skill://ops/review/assets\",\"name\":\"assets\",\"mimeType\":\"inode/directory\"")
        .contains("\"uri\":\"skill://ops/review/SKILL.md\"");
    JsonObject list = result(call.apply(request("skills/list", "")));
    assertThat(list.string("resultType")).contains("complete");
    assertThat(list.has("ttlMs")).isTrue();
    List<Json> skills = list.array("skills").orElseThrow().elements();
    assertThat(skills).hasSize(1);
    JsonObject skill = (JsonObject) skills.getFirst();
    assertThat(JsonCodec.write(skill.object("frontmatter").orElseThrow()))
        .isEqualTo("{\"name\":\"review\",\"description\":\"Reviews.\",\"license\":\"MIT\"}");
    JsonObject got =
        result(call.apply(request("skills/get", "\"uri\":\"skill://ops/review/SKILL.md\"")));
    assertThat(got.object("skill").orElseThrow()).isEqualTo(skill);
    JsonObject unknown =
        call.apply(request("skills/get", "\"uri\":\"skill://ops/review/references/guide.md\""));
    assertThat(JsonCodec.write(unknown)).contains("\"code\":-32602");
    List<String> uris = new ArrayList<>();
    for (Json r : skill.array("resources").orElseThrow().elements()) {
      JsonObject entry = (JsonObject) r;
      String uri = entry.string("uri").orElseThrow();
      uris.add(uri);
      JsonObject read = result(call.apply(request("resources/read", "\"uri\":\"" + uri + "\"")));
      JsonObject contents =
          (JsonObject) read.array("contents").orElseThrow().elements().getFirst();
      byte[] bytes = contents.string("text").isPresent()
          ? contents.string("text").orElseThrow().getBytes(UTF_8)
          : Base64.getDecoder().decode(contents.string("blob").orElseThrow());
      assertThat(JsonCodec.write(entry)).contains("\"size\":" + bytes.length + "}");
      assertThat(entry.string("digest").orElseThrow())
          .isEqualTo("sha256:"
              + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }
    assertThat(uris)
        .containsExactly(
            "skill://ops/review/SKILL.md",
            "skill://ops/review/assets/logo.png",
            "skill://ops/review/references/guide.md");
    // The skill is a prompt too, for clients without the extension.
    JsonObject prompts = result(call.apply(request("prompts/list", "")));
    assertThat(JsonCodec.write(prompts))
        .contains("\"name\":\"hello\"")
        .contains(
            "{\"name\":\"ops-review\",\"title\":\"review (skill)\",\"description\":\"Reviews.\"");
    JsonObject rendered = result(call.apply(request(
        "prompts/get", "\"name\":\"ops-review\",\"arguments\":{\"task\":\"the March outage\"}")));
    assertThat(JsonCodec.write(rendered))
        .contains("{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://ops/review/SKILL.md\"")
        .contains("{\"type\":\"resource_link\",\"uri\":\"skill://ops/review/assets/logo.png\"")
        .contains("{\"type\":\"resource\",\"resource\":{\"uri\":"
            + "\"skill://ops/review/references/guide.md\",\"mimeType\":\"text/markdown\","
            + "\"text\":\"guide\\n\"}")
        .contains("for this task:\\n\\nthe March outage");
  }

  static String request(String method, String members) {
    return "{\"jsonrpc\":\"2.0\",\"id\":{ID},\"method\":\"" + method + "\",\"params\":{"
        + (members.isEmpty() ? "" : members + ",") + META + "}}";
  }

  static JsonObject result(JsonObject response) {
    assertThat(response.object("result")).as(JsonCodec.write(response)).isPresent();
    return response.object("result").orElseThrow();
  }

  static JsonObject awaitResponse(BlockingQueue<JsonObject> out, int id)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      JsonObject m = out.poll(1, TimeUnit.SECONDS);
      if (m != null
          && m.get("id") != null
          && JsonCodec.write(m.get("id")).equals(String.valueOf(id))) {
        return m;
      }
    }
    throw new AssertionError("no response to request " + id);
  }

  static @org.jspecify.annotations.Nullable JsonObject awaitNotification(
      BlockingQueue<JsonObject> out, String method) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      JsonObject m = out.poll(1, TimeUnit.SECONDS);
      if (m != null && method.equals(m.string("method").orElse(null))) {
        return m;
      }
    }
    return null;
  }

  private static String sseData(String text) {
    StringBuilder data = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("data:")) {
        data.append(line.substring(5).strip());
      }
    }
    return data.toString();
  }

  static String awaitUrl(Process server) throws InterruptedException {
    BlockingQueue<String> err = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(server.getErrorStream(), UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          err.add(line);
        }
      } catch (IOException e) {
        // gone
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      String line = err.poll(1, TimeUnit.SECONDS);
      if (line != null) {
        Matcher m = Pattern.compile("serving .* on (http://\\S+)").matcher(line);
        if (m.find()) {
          return m.group(1);
        }
      }
    }
    throw new AssertionError("the server printed no URL within 30 s");
  }

  static List<String> java() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    return command;
  }
}
