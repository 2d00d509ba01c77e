package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promptd command line as a user runs it: real child processes, real exit codes, real output.
 */
class CliProcessTest {
  private static final Path ROOT =
      Path.of(System.getProperty("promptd.root", "..")).toAbsolutePath().normalize();
  private static final Path FIXTURES = ROOT.resolve("fixtures/conformance");

  @TempDir
  Path dir;

  @Test
  void versionAndUsage() throws Exception {
    assertThat(run(List.of("--version"), "").status).isZero();
    Result none = run(List.of(), "");
    assertThat(none.status).isEqualTo(Main.USAGE);
    assertThat(none.err).contains("Usage:");
    Result unknown = run(List.of("frobnicate"), "");
    assertThat(unknown.status).isEqualTo(Main.USAGE);
    assertThat(unknown.err).contains("unknown command 'frobnicate'");
    assertThat(run(List.of("serve"), "").status).isEqualTo(Main.USAGE);
    assertThat(run(List.of("serve", dir.resolve("missing").toString()), "").err)
        .contains("not a folder");
  }

  /**
   * Mistakes get one line that names the cause and where to read more, never the whole help or a
   * class name.
   */
  @Test
  void mistakesAreOneLineWithAHintAndEachCommandHasItsHelp() throws Exception {
    Result badOption = run(List.of("serve", "--bogus", dir.toString()), "");
    assertThat(badOption.status).isEqualTo(Main.USAGE);
    assertThat(badOption.err)
        .isEqualTo("promptd: unknown option '--bogus'\npromptd: see 'promptd help serve'\n");
    Result badUrl = run(List.of("list", "--url", "notaurl"), "");
    assertThat(badUrl.status).isEqualTo(Main.USAGE);
    assertThat(badUrl.err)
        .contains("--url needs an http:// or https:// URL")
        .doesNotContain("Exception", "Usage:");
    Result refused = run(List.of("list", "--url", "http://127.0.0.1:9/mcp", "--timeout", "5"), "");
    assertThat(refused.status).isEqualTo(Main.CONNECTION_FAILED);
    assertThat(refused.err)
        .contains("the connection was refused")
        .doesNotContain("null", "Exception");
    Result missingFile =
        run(List.of("get", "x", "text=@" + dir.resolve("nope.txt"), "--stdio", "true"), "");
    assertThat(missingFile.status).isEqualTo(Main.USAGE);
    assertThat(missingFile.err)
        .contains("the value of 'text' is read from", "which does not exist", "written @@");
    Result help = run(List.of("help", "get"), "");
    assertThat(help.status).isZero();
    assertThat(help.err)
        .contains("promptd get", "SERVER is", "--token TOKEN")
        .doesNotContain("promptd serve", "promptd publish");
    assertThat(run(List.of("clients", "--help"), "").err)
        .contains("promptd clients")
        .doesNotContain("promptd get");
    assertThat(run(List.of("serve", "--help"), "").err)
        .contains("serve options:", "--no-form-first");
    Result unknown = run(List.of("help", "frobnicate"), "");
    assertThat(unknown.status).isEqualTo(Main.USAGE);
    assertThat(unknown.err).contains("unknown command 'frobnicate'; the commands: serve, check");
  }

  @Test
  void checkPassesTheFixturesAndFailsABrokenFileWithItsLine() throws Exception {
    Result ok = run(List.of("check", FIXTURES.toString()), "");
    assertThat(ok.status).as(ok.out + ok.err).isZero();
    Files.writeString(
        dir.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHello {{who}}\n");
    Result broken = run(List.of("check", dir.toString()), "");
    assertThat(broken.status).isEqualTo(Main.CHECK_FAILED);
    assertThat(broken.out).containsPattern("broken\\.prompt\\.md:\\d+: error");
  }

  @Test
  void importWritesNativeFilesAndSaysWhatItCouldNotConvert() throws Exception {
    Path source = Files.createDirectories(dir.resolve("src"));
    Files.createDirectories(source.resolve(".gemini/commands"));
    Files.writeString(source.resolve(".gemini/commands/plan.toml"), "prompt = \"Plan {{args}}\"\n");
    Files.writeString(
        source.resolve("bad.prompty"), "---\nsample:\n  x: 1\n---\n{{ x | upper }}\n");
    Path target = dir.resolve("native");
    Result imported = run(List.of("import", source.toString(), target.toString()), "");
    assertThat(imported.status).as(imported.out + imported.err).isEqualTo(Main.CHECK_FAILED);
    assertThat(imported.out)
        .contains("converted " + source.resolve(".gemini/commands/plan.toml") + " -> "
            + target.resolve("plan.prompt.md"))
        .contains("skipped   " + source.resolve("bad.prompty"))
        .contains("bad.prompty:5: error: {{ x | upper }} is a Jinja expression")
        .endsWith("1 converted, 1 not converted\n");
    assertThat(Files.readString(target.resolve("plan.prompt.md"))).contains("Plan {{args}}");
    Result checked = run(List.of("check", target.toString()), "");
    assertThat(checked.status).as(checked.out).isZero();
    assertThat(run(List.of("import", source.toString()), "").status).isEqualTo(Main.USAGE);
  }

  @Test
  void startUpDiagnosticsArePrintedOnce() throws Exception {
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    Files.writeString(dir.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHello\n");
    Result served =
        run(List.of("serve", "--stdio", "--no-watch", dir.toString()), ""); // stdin ends at once
    assertThat(served.status).as(served.err).isZero();
    assertThat(served.err.lines().filter(l -> l.contains("broken.prompt.md")))
        .as(served.err)
        .singleElement()
        .asString()
        .startsWith("promptd ERROR: ")
        .contains("broken.prompt.md:3: error");
  }

  @Test
  void getListAndCompleteAgainstAServedLibrary() throws Exception {
    String server = serverCommand();
    Result list = run(List.of("list", "--stdio", server), "");
    assertThat(list.status).as(list.err).isZero();
    assertThat(list.out).contains("test_prompt_with_arguments").contains("arg1*, arg2*");
    Files.writeString(dir.resolve("value.txt"), "from a file");
    Result get = run(
        List.of(
            "get",
            "test_prompt_with_arguments",
            "arg1=@" + dir.resolve("value.txt"),
            "arg2=@-",
            "--stdio",
            server),
        "from stdin");
    assertThat(get.status).as(get.err).isZero();
    assertThat(get.out).contains("── user ──").contains("from a file").contains("from stdin");
    Result json = run(List.of("get", "test_simple_prompt", "--json", "--stdio", server), "");
    assertThat(json.out.strip()).startsWith("{").contains("\"messages\"");
    Result complete =
        run(List.of("complete", "test_prompt_with_arguments", "arg1", "t", "--stdio", server), "");
    assertThat(complete.status).as(complete.err).isZero();
  }

  /**
   * {@code serve} asks a 2026-07-28 client that declares form elicitation for a prompt's missing
   * arguments (an InputRequiredResult) over stdio; with {@code --no-elicit} it answers -32602 as
   * before.
   */
  @Test
  void serveAsksForMissingArgumentsUnlessToldNotTo() throws Exception {
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":"
            + "\"test_prompt_with_arguments\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}}}}\n";
    Result asked = run(List.of("serve", "--no-watch", FIXTURES.toString()), request);
    assertThat(asked.out)
        .contains(
            "\"resultType\":\"input_required\"",
            "\"method\":\"elicitation/create\"",
            "\"requestState\":");
    Result refused =
        run(List.of("serve", "--no-watch", "--no-elicit", FIXTURES.toString()), request);
    assertThat(refused.out)
        .contains("\"code\":-32602", "missing required arguments")
        .doesNotContain("input_required");
  }

  /**
   * {@code promptd get} on a real terminal (a pseudo-terminal from util-linux {@code script})
   * against a served library: the server asks for the missing arguments, the form is shown, the
   * typed answers render the prompt; {@code --no-input} fails with the server's reason instead.
   */
  @Test
  void getOnATerminalAnswersTheServersFormAndNoInputFails() throws Exception {
    assumeScript();
    StringBuilder cli = new StringBuilder();
    for (String part : java()) {
      cli.append('\'').append(part.replace("'", "'\\''")).append("' ");
    }
    cli.append("get test_prompt_with_arguments --stdio ")
        .append('\'')
        .append(serverCommand().replace("'", "'\\''"))
        .append('\'');
    Process p = new ProcessBuilder("script", "-q", "-e", "-c", cli.toString(), "/dev/null")
        .redirectErrorStream(true)
        .start();
    p.getOutputStream().write("from the terminal\nsecond answer\n".getBytes(UTF_8));
    p.getOutputStream().flush();
    String out = read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out)
        .contains(
            "needs more from you",
            "arg1 *: ",
            "arg2 *: ",
            "arg1='from the terminal', arg2='second answer'");
    assertThat(p.exitValue()).as(out).isZero();
    Result refused = run(
        List.of("get", "test_prompt_with_arguments", "--no-input", "--stdio", serverCommand()), "");
    assertThat(refused.status).isEqualTo(Main.SERVER_ERROR);
    assertThat(refused.err).contains("-32602", "missing required arguments 'arg1', 'arg2'");
  }

  private static void assumeScript() {
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/script")),
        "util-linux script (a pseudo-terminal) is not installed");
  }

  @Test
  void theStartUpCacheTrainingRunServesBothTransportsAndExits() throws Exception {
    for (List<String> mode : List.of(List.<String>of(), List.of("--http"))) {
      List<String> args = new ArrayList<>(List.of(
          "train-cache",
          FIXTURES.toString(),
          ROOT.resolve("promptd-cli/src/aot/train.jsonl").toString()));
      args.addAll(mode);
      Result training = run(args, "");
      assertThat(training.status).as(training.err).isZero();
      assertThat(training.out)
          .as("the transcript's answers go nowhere, not to stdout")
          .isEmpty();
    }
  }

  @Test
  void exitCodesTellServerErrorsFromConnectionFailures() throws Exception {
    Result unknown = run(List.of("get", "no_such_prompt", "--stdio", serverCommand()), "");
    assertThat(unknown.status).isEqualTo(Main.SERVER_ERROR);
    assertThat(unknown.err).contains("-32602").contains("no_such_prompt");
    Result unreachable =
        run(List.of("list", "--url", "http://127.0.0.1:9/mcp", "--timeout", "5"), "");
    assertThat(unreachable.status).isEqualTo(Main.CONNECTION_FAILED);
    Result noServer = run(List.of("list", "--stdio", "exit 0"), "");
    assertThat(noServer.status).isEqualTo(Main.CONNECTION_FAILED);
  }

  @Test
  void servesHttpUntilTerminatedAndThenExitsCleanly() throws Exception {
    List<String> command = java();
    command.addAll(List.of("serve", "--http", "0", FIXTURES.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      String url = awaitUrl(server);
      Result list = run(List.of("list", "--json", "--url", url), "");
      assertThat(list.status).as(list.err).isZero();
      assertThat(list.out).contains("test_simple_prompt");
    } finally {
      server.destroy(); // SIGTERM: graceful stop
    }
    assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isIn(0, 143);
  }

  /**
   * The client against a server that needs a token: refused with a hint without one, refused with a
   * wrong one, and served with {@code --token}, {@code PROMPTD_TOKEN} or {@code --header}.
   */
  @Test
  void theClientSendsATokenToAProtectedServer() throws Exception {
    List<String> command = java();
    command.addAll(
        List.of("serve", "--http", "0", "--token", "team-secret-1", FIXTURES.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      String url = awaitUrl(server);
      Result none = run(List.of("list", "--url", url), "", Map.of(ServeOptions.TOKEN_VARIABLE, ""));
      assertThat(none.status).isEqualTo(Main.CONNECTION_FAILED);
      assertThat(none.err)
          .contains("refused the request: HTTP 401")
          .contains("it needs a token: pass --token TOKEN or set PROMPTD_TOKEN");
      Result wrong = run(List.of("list", "--url", url, "--token", "nope"), "", Map.of());
      assertThat(wrong.err)
          .contains("HTTP 401")
          .contains("the token was not accepted (wrong or expired)")
          .doesNotContain("nope");
      Result flag = run(List.of("list", "--url", url, "--token", "team-secret-1"), "", Map.of());
      assertThat(flag.status).as(flag.err).isZero();
      assertThat(flag.out).contains("test_simple_prompt");
      Result env = run(
          List.of("get", "test_simple_prompt", "--url", url),
          "",
          Map.of(ServeOptions.TOKEN_VARIABLE, "team-secret-1"));
      assertThat(env.status).as(env.err).isZero();
      Result header = run(
          List.of("list", "--url", url, "--header", "Authorization: Bearer team-secret-1"),
          "",
          Map.of(ServeOptions.TOKEN_VARIABLE, ""));
      assertThat(header.status).as(header.err).isZero();
      Result spaced =
          run(List.of("list", "--url", url, "--token", "Bearer team-secret-1"), "", Map.of());
      assertThat(spaced.status).isEqualTo(Main.USAGE);
      assertThat(spaced.err).contains("--token takes the token alone");
      Result stdio = run(List.of("list", "--stdio", "true", "--token", "x"), "", Map.of());
      assertThat(stdio.status).isEqualTo(Main.USAGE);
    } finally {
      server.destroy();
      server.waitFor(20, TimeUnit.SECONDS);
    }
  }

  /** {@code serve --http --catalog} says where the catalog is, and serves it there. */
  @Test
  void theStartUpLinesNameTheCatalogsAddress() throws Exception {
    List<String> command = java();
    command.addAll(List.of("serve", "--http", "0", "--catalog", FIXTURES.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      LinkedBlockingQueue<String> err = lines(server.getErrorStream());
      String serving = awaitLine(err, " on http://");
      String catalog = awaitLine(err, "web catalog at ");
      Matcher m = Pattern.compile("on (http://127\\.0\\.0\\.1:\\d+)/mcp").matcher(serving);
      assertThat(m.find()).as(serving).isTrue();
      assertThat(catalog).isEqualTo("promptd: web catalog at " + m.group(1) + "/");
      HttpResponse<String> page = HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(m.group(1) + "/"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("Prompt catalog");
    } finally {
      server.destroy();
      server.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void theServerCallsItselfPromptdWithTheBuildsVersion() throws Exception {
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    List<String> command = java();
    command.addAll(List.of("serve", "--stdio", dir.toString()));
    Process server = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> out = lines(server.getInputStream());
    try {
      server
          .getOutputStream()
          .write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                  + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                  + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n")
              .getBytes(UTF_8));
      server.getOutputStream().flush();
      assertThat(out.poll(30, TimeUnit.SECONDS))
          .contains("\"serverInfo\":{\"name\":\"promptd\",\"title\":\"promptd\",\"version\":\""
              + McpServer.libraryVersion() + "\"}");
    } finally {
      server.destroy();
      assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aBrokenFileSavedWhileServingIsReportedToTheClientAndOnStderr() throws Exception {
    Files.writeString(dir.resolve("good.prompt.md"), "---\ndescription: fine\n---\nHello\n");
    List<String> command = java();
    command.addAll(List.of("serve", "--stdio", dir.toString()));
    Process server = new ProcessBuilder(command).start();
    LinkedBlockingQueue<String> out = lines(server.getInputStream());
    LinkedBlockingQueue<String> err = lines(server.getErrorStream());
    try {
      server.getOutputStream().write(("""
          {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},\
          "clientInfo":{"name":"test","version":"1"}}}
          {"jsonrpc":"2.0","method":"notifications/initialized"}
          """).getBytes(UTF_8));
      server.getOutputStream().flush();
      assertThat(out.poll(30, TimeUnit.SECONDS)).contains("\"id\":1").contains("\"result\"");
      Files.writeString(
          dir.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHello\n");
      String message = awaitLine(out, "notifications/message");
      assertThat(message)
          .contains("\"level\":\"error\"")
          .contains("\"logger\":\"promptd.library\"")
          .contains("broken.prompt.md");
      assertThat(awaitLine(err, "broken.prompt.md")).startsWith("promptd ERROR: ");
    } finally {
      server.destroy();
      assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * The lines of {@code in}, read in the background as they arrive (so the writer's pipe never
   * fills up).
   */
  static LinkedBlockingQueue<String> lines(InputStream in) {
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          lines.add(line);
        }
      } catch (IOException ignored) {
        // the process went away
      }
    });
    return lines;
  }

  /** Waits up to 30 s for a line containing {@code containing}. */
  static String awaitLine(LinkedBlockingQueue<String> lines, String containing)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    StringBuilder seen = new StringBuilder();
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null) {
        if (line.contains(containing)) {
          return line;
        }
        seen.append(line).append('\n');
      }
    }
    throw new AssertionError("no line containing '" + containing + "' within 30 s; saw:\n" + seen);
  }

  private static String awaitUrl(Process server) throws InterruptedException {
    // lines() keeps reading stderr after this, so the server's pipe never fills up.
    String serving = awaitLine(lines(server.getErrorStream()), " on http://");
    Matcher m = Pattern.compile("serving .* on (http://\\S+)").matcher(serving);
    assertThat(m.find()).isTrue();
    return m.group(1);
  }

  private static String serverCommand() {
    List<String> command = java();
    command.addAll(List.of("serve", "--no-watch", FIXTURES.toString()));
    return shell(command);
  }

  /** {@code command} as one shell command line for {@code --stdio}, its stderr discarded. */
  static String shell(List<String> command) {
    StringBuilder s = new StringBuilder();
    for (String part : command) {
      s.append(s.isEmpty() ? "" : " ")
          .append('\'')
          .append(part.replace("'", "'\\''"))
          .append('\'');
    }
    return s.append(" 2>/dev/null").toString();
  }

  static List<String> java() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    return command;
  }

  static Result run(List<String> args, String stdin) throws Exception {
    return run(args, stdin, Map.of());
  }

  static Result run(List<String> args, String stdin, Map<String, String> env) throws Exception {
    List<String> command = java();
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    Process p = pb.start();
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    p.getOutputStream().write(stdin.getBytes(UTF_8));
    p.getOutputStream().close();
    String out = read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished: " + args).isTrue();
    return new Result(p.exitValue(), out, err.get());
  }

  /** All of {@code in}; empty when reading it fails. */
  static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  record Result(int status, String out, String err) {}
}
