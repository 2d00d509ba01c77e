package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/deploy.md's static-token lines ("Remote with a static token") run as written in a shell: the
 * token lands in the file the doc names, readable by its owner only, and the server they start
 * accepts that token and refuses another with 401.
 */
@Timeout(120)
class DeployTokenDocTest {
  private static final String HEADING = "## 2. Remote with a static token";

  @TempDir
  Path dir;

  @Test
  void theTokenLinesWriteAnOwnerOnlyFileAndServeWithThatToken() throws Exception {
    String block = DocLines.block("deploy.md", HEADING, "sh");
    // Its own port (3000 may be taken where the tests run); every other word as written.
    String sh = block.replace("--http 3000 ", "--http 0 ");
    assertThat(sh).as("the serve line's port").isNotEqualTo(block);
    assertThat(block).contains("~/.promptd-token");
    assertThat(Files.readString(DocLines.DOCS.resolve("deploy.md")))
        .as("the doc says where the token is")
        .contains("Give the token in `~/.promptd-token`");

    // ./promptd is this build's CLI and examples/prompts the repository's, as in a checkout.
    DocLines.launcher(dir.resolve("promptd"));
    Files.createSymbolicLink(
        dir.resolve("examples"), DocLines.DOCS.getParent().resolve("examples").toAbsolutePath());
    Path home = Files.createDirectories(dir.resolve("home"));
    ProcessBuilder builder = new ProcessBuilder("sh", "-e", "-c", sh)
        .directory(dir.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("HOME", home.toString());
    builder.environment().remove("PROMPTD_TOKEN");
    Process shell = builder.start();
    try {
      LinkedBlockingQueue<String> err = CliProcessTest.lines(shell.getErrorStream());
      String serving = CliProcessTest.awaitLine(err, "(bearer token required)");
      Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/mcp").matcher(serving);
      assertThat(m.find()).as(serving).isTrue();
      URI mcp = URI.create(m.group());
      Matcher shown =
          Pattern.compile("# (promptd: serving \\d+ prompt\\(s\\)) on ").matcher(block);
      assertThat(shown.find()).as("the start line the doc shows").isTrue();
      assertThat(serving).startsWith(shown.group(1) + " on ");

      Path file = home.resolve(".promptd-token");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
      String token = Files.readString(file).strip();
      assertThat(token).matches("[0-9a-f]{64}");

      assertThat(initialize(mcp, token)).isEqualTo(200);
      assertThat(initialize(mcp, "0".repeat(64))).isEqualTo(401);
      assertThat(initialize(mcp, null)).isEqualTo(401);
    } finally {
      shell.descendants().forEach(ProcessHandle::destroy);
      shell.destroy();
    }
    assertThat(shell.waitFor(20, TimeUnit.SECONDS)).isTrue();
  }

  /** The status of an {@code initialize} POST with {@code token} as the bearer token, or none. */
  private static int initialize(URI mcp, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(mcp)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,"
            + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"doc-test\",\"version\":\"1\"}}}"));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client
          .send(request.build(), HttpResponse.BodyHandlers.discarding())
          .statusCode();
    }
  }
}
