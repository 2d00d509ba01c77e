package io.promptd.cli;

import static io.promptd.cli.CliProcessTest.awaitLine;
import static io.promptd.cli.CliProcessTest.java;
import static io.promptd.cli.CliProcessTest.lines;
import static io.promptd.cli.CliProcessTest.run;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prompt file with an error {@code promptd check} reports, as a user of {@code serve} and
 * {@code get} meets it: never rendered, and the error reaches the client
 * ({@code notifications/message} at level {@code error}) and stderr, each with its
 * {@code file:line}.
 */
class CheckErrorsServedCliTest {
  @TempDir
  Path dir;

  @Test
  void getOfAPromptWhoseFileHasAnErrorFailsAndSaysWhy() throws Exception {
    Path file = Files.writeString(dir.resolve("haiku.prompt.md"), haiku("{{subjet}}"));
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    List<String> server = java();
    server.addAll(List.of("serve", "--no-watch", dir.toString()));

    // The server's stderr is the command's own: the user sees the server's log line too.
    CliProcessTest.Result get =
        run(List.of("get", "haiku", "--stdio", String.join(" ", quoted(server))), "");

    assertThat(get.status()).as(get.out() + get.err()).isEqualTo(Main.SERVER_ERROR);
    assertThat(get.out()).doesNotContain("Write a haiku");
    assertThat(get.err())
        .contains("promptd ERROR: " + file
            + ":7: error: template uses 'subjet' but no argument 'subjet' is declared")
        .contains("the server answered with error -32602: Unknown prompt: 'haiku'")
        .contains("no prompt 'haiku' is served")
        .contains(
            "A prompt file with an error is not served: `promptd check DIR` shows the errors");
    CliProcessTest.Result checked = run(List.of("check", dir.toString()), "");
    assertThat(checked.status()).isEqualTo(Main.CHECK_FAILED);
    assertThat(checked.out())
        .contains(file + ":7: error: template uses 'subjet' but no argument 'subjet' is declared");
  }

  @Test
  void anErrorSavedWhileServingReachesTheClientAtLevelErrorAndTheLastGoodVersionStays()
      throws Exception {
    Path file = Files.writeString(dir.resolve("haiku.prompt.md"), haiku("{{subject}}"));
    List<String> command = java();
    command.addAll(List.of("serve", "--stdio", dir.toString()));
    Process server = new ProcessBuilder(command).start();
    LinkedBlockingQueue<String> out = lines(server.getInputStream());
    LinkedBlockingQueue<String> err = lines(server.getErrorStream());
    OutputStream in = server.getOutputStream();
    try {
      send(in, """
          {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
          "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
          {"jsonrpc":"2.0","method":"notifications/initialized"}
          """);
      assertThat(awaitLine(out, "\"id\":1")).contains("\"result\"");

      Files.writeString(file, haiku("{{subjet}}"));
      String message = awaitLine(out, "notifications/message");
      assertThat(message)
          .contains("\"level\":\"error\"")
          .contains("\"logger\":\"promptd.library\"")
          .contains(
              file + ":7: error: template uses 'subjet' but no argument 'subjet' is declared");
      assertThat(awaitLine(err, "subjet"))
          .isEqualTo("promptd ERROR: " + file
              + ":7: error: template uses 'subjet' but no argument 'subjet' is declared");
      assertThat(awaitLine(out, "serving the last version"))
          .contains("\"level\":\"info\"")
          .contains(file + ":1: warning: serving the last version that loaded until the errors are"
              + " fixed");
      send(in, get(2));
      assertThat(awaitLine(out, "\"id\":2")).contains("Write a haiku about autumn.");

      Files.writeString(file, haiku("{{subject}}, in three lines"));
      int[] id = {2};
      String[] answer = {""};
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(50),
          () -> "the fixed version was not served; last answer: " + answer[0],
          () -> {
            send(in, get(++id[0]));
            answer[0] = awaitLine(out, "\"id\":" + id[0] + ",");
            return answer[0].contains("Write a haiku about autumn, in three lines.");
          });
    } finally {
      server.destroy();
      assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aClientThatConnectsAfterTheErrorWasLoggedHearsOfItBeforeItsFirstListing() throws Exception {
    Path file = Files.writeString(dir.resolve("haiku.prompt.md"), haiku("{{subjet}}"));
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    List<String> command = java();
    command.addAll(List.of("serve", "--stdio", "--no-watch", dir.toString()));
    Process server = new ProcessBuilder(command).start();
    LinkedBlockingQueue<String> out = lines(server.getInputStream());
    LinkedBlockingQueue<String> err = lines(server.getErrorStream());
    OutputStream in = server.getOutputStream();
    try {
      assertThat(awaitLine(err, "subjet")).startsWith("promptd ERROR: " + file + ":7:");
      send(in, """
          {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
          "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
          """);
      assertThat(awaitLine(out, "\"id\":1")).contains("\"result\"");
      send(in, """
          {"jsonrpc":"2.0","method":"notifications/initialized"}
          {"jsonrpc":"2.0","id":2,"method":"prompts/list"}
          """);
      String message = awaitLine(out, "notifications/message");
      assertThat(message)
          .contains("\"level\":\"error\"")
          .contains("\"logger\":\"promptd.library\"")
          .contains(
              file + ":7: error: template uses 'subjet' but no argument 'subjet' is declared");
      String listing = awaitLine(out, "\"id\":2");
      assertThat(listing).contains("\"good\"").doesNotContain("\"haiku\"");

      // Told once: the next listing comes alone.
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\"}\n");
      List<String> next = new ArrayList<>();
      String line;
      do {
        line = out.poll(30, TimeUnit.SECONDS);
        assertThat(line).as("the answer to the second listing; saw %s", next).isNotNull();
        next.add(line);
      } while (!line.contains("\"id\":3"));
      assertThat(next).singleElement().asString().contains("\"good\"");
    } finally {
      server.destroy();
      assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static String haiku(String subject) {
    return "---\ndescription: a haiku\narguments:\n  - name: subject\n    default: autumn\n---\n"
        + "Write a haiku about " + subject + ".\n";
  }

  private static String get(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id
        + ",\"method\":\"prompts/get\",\"params\":{\"name\":\"haiku\"}}\n";
  }

  private static void send(OutputStream in, String lines) throws Exception {
    in.write(lines.getBytes(UTF_8));
    in.flush();
  }

  private static List<String> quoted(List<String> command) {
    return command.stream().map(p -> "'" + p.replace("'", "'\\''") + "'").toList();
  }
}
