package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd clients --http URL} against real servers: a promptd that signs people in with a
 * real authorization server (mock-oauth2-server) gets every client's OAuth form, found in its
 * protected-resource metadata; a promptd with a shared token gets the bearer forms.
 */
@Timeout(120)
class ClientsOAuthTest {
  private static MockOAuth2Server issuer;

  @TempDir
  Path dir;

  @BeforeAll
  static void startIssuer() {
    issuer = new MockOAuth2Server();
    issuer.start();
  }

  @AfterAll
  static void stopIssuer() {
    issuer.shutdown();
  }

  private static String clients(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(Clients.run(List.of(args), new PrintStream(out, true, UTF_8))).isZero();
    return out.toString(UTF_8);
  }

  /** A promptd serving over HTTP, and its MCP URL. */
  private record Running(Process process, String url) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor();
    }
  }

  /** Starts {@code serve --http 0 ARGS DIR} and returns it once it is ready. */
  private Running serve(String... args) throws Exception {
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    List<String> command = StoreCliTest.java();
    command.addAll(List.of("serve", "--http", "0"));
    command.addAll(List.of(args));
    command.add(dir.toString());
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
      Matcher m = Pattern.compile("on (http://\\S+)/mcp")
          .matcher(CliProcessTest.awaitLine(err, " on http://"));
      assertThat(m.find()).isTrue();
      String base = m.group(1);
      Poll.ok(URI.create(base + "/readyz"), Duration.ofSeconds(60));
      return new Running(server, base + "/mcp");
    } catch (Exception | AssertionError e) {
      server.destroy();
      throw e;
    }
  }

  @Test
  void anOAuthServerIsFoundInItsMetadataAndGetsNoTokenAnywhere() throws Exception {
    String issuerUrl = issuer.issuerUrl("team").toString();
    try (Running server = serve("--oauth-issuer", issuerUrl)) {
      String url = server.url();
      String all = clients("--http", url);
      assertThat(all)
          .contains(
              "# promptd for MCP clients: " + url + ", where people sign in with OAuth at "
                  + issuerUrl,
              "claude mcp add --transport http promptd " + url + "\n",
              "\"httpUrl\": \"" + url + "\"")
          .doesNotContain("Bearer", "PROMPTD_TOKEN");
      assertThat(clients("--http", url, "--client-id", "promptd-cli", "--client", "claude-code"))
          .contains("--client-id promptd-cli");
    }
  }

  @Test
  void aServerWithASharedTokenGetsTheBearerForms() throws Exception {
    try (Running server = serve("--token", "s3cret-for-the-test")) {
      String url = server.url();
      assertThat(clients("--http", url))
          .contains(url + " with the bearer token from $PROMPTD_TOKEN", "Bearer $PROMPTD_TOKEN")
          .doesNotContain("sign in with OAuth", "s3cret-for-the-test");
    }
  }
}
