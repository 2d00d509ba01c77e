package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.testing.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd serve --store URL --label LABEL} over stdio and HTTP against a real PostgreSQL:
 * the labelled version is served while the newest differs, and a label move reaches a watching
 * client as {@code list_changed}.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class LabelServeCliTest {
  @TempDir
  Path dir;

  @Test
  void servesTheLabelledVersionsAndAMoveReachesAWatcher() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello one\n");
    assertThat(StoreCliTest.run(
                List.of("publish", dir.toString(), "--store", url, "--label", "staging"))
            .status())
        .isZero();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello two\n");
    Files.writeString(dir.resolve("extra.prompt.md"), "Extra\n");
    assertThat(
            StoreCliTest.run(List.of("publish", dir.toString(), "--store", url)).status())
        .isZero();

    List<String> serve = StoreCliTest.java();
    serve.addAll(List.of("serve", "--store", url, "--label", "staging"));
    String stdio = CliProcessTest.shell(serve);
    Result list = StoreCliTest.run(List.of("list", "--stdio", stdio));
    assertThat(list.status()).as(list.err()).isZero();
    assertThat(list.out()).contains("hello").doesNotContain("extra");
    assertThat(StoreCliTest.run(List.of("get", "hello", "--stdio", stdio)).out())
        .contains("Hello one");

    serve.addAll(List.of("--http", "0"));
    Process server = new ProcessBuilder(serve)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Process watcher = null;
    try {
      String serving = CliProcessTest.awaitLine(serverErr, " on http://");
      assertThat(serving).contains("serving 1 prompt(s)");
      Matcher m = Pattern.compile("on (http://\\S+)").matcher(serving);
      assertThat(m.find()).isTrue();
      String at = m.group(1);
      assertThat(StoreCliTest.run(List.of("get", "hello", "--url", at)).out())
          .contains("Hello one");
      List<String> watch = StoreCliTest.java();
      watch.addAll(List.of("watch", "--url", at));
      watcher = new ProcessBuilder(watch).start();
      LinkedBlockingQueue<String> watched = CliProcessTest.lines(watcher.getInputStream());
      CliProcessTest.lines(watcher.getErrorStream());
      CliProcessTest.awaitLine(watched, "watching");

      Result moved =
          StoreCliTest.run(List.of("label", "set", "hello", "2", "staging", "--store", url));
      assertThat(moved.status()).as(moved.err()).isZero();
      CliProcessTest.awaitLine(watched, "prompts changed: 1 prompt(s)");
      assertThat(StoreCliTest.run(List.of("get", "hello", "--url", at)).out())
          .contains("Hello two");
      StoreCliTest.run(List.of("label", "set", "extra", "1", "staging", "--store", url));
      CliProcessTest.awaitLine(watched, "prompts changed: 2 prompt(s)");
    } finally {
      if (watcher != null) {
        watcher.destroy();
      }
      server.destroy();
    }
    assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
  }
}
