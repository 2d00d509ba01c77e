package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scopes apply only when promptd serves with OAuth: with a static token (or none) every caller sees
 * every prompt, and the start line and {@code promptd check} say so instead of ignoring the scopes
 * without a word.
 */
@Timeout(120)
class ScopesNeedOAuthCliTest {
  @TempDir
  Path dir;

  private void library() throws Exception {
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: d\n---\nHello\n");
    Path ops = Files.createDirectories(dir.resolve("ops"));
    Files.writeString(ops.resolve("_folder.yaml"), "scopes: [ops]\n");
    Files.writeString(ops.resolve("rotate.prompt.md"), "---\ndescription: d\n---\nRotate\n");
    Files.writeString(
        dir.resolve("audit.prompt.md"), "---\ndescription: d\nscopes: [audit]\n---\nAudit\n");
  }

  @Test
  void servingScopedPromptsWithAStaticTokenWarnsAtStart() throws Exception {
    library();
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName(),
        "serve",
        "--http",
        "0",
        "--token",
        "a-static-token-of-32-characters-at-least",
        "--no-watch",
        dir.toString()));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      LinkedBlockingQueue<String> err = CliProcessTest.lines(server.getErrorStream());
      CliProcessTest.awaitLine(err, "bearer token required");
      assertThat(CliProcessTest.awaitLine(err, "scopes"))
          .isEqualTo("promptd: warning: 2 prompt(s) require scopes (audit, ops-rotate), but scopes"
              + " apply only with OAuth (--oauth-issuer): every holder of the token sees them"
              + " (docs/deploy.md, \"Who sees which prompt\")");
    } finally {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  void checkSaysScopesNeedOAuth() throws Exception {
    library();
    CliProcessTest.Result r = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out())
        .isEqualTo("0 error(s), 0 warning(s)\n"
            + "note: 2 prompt(s) require scopes (audit, ops-rotate): scopes apply only when promptd"
            + " serves with OAuth (--oauth-issuer); with a static token, or none, every caller sees"
            + " every prompt\n");
  }
}
