package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.store.testing.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd publish}, {@code history}, {@code rollback} and {@code serve --store} as a user
 * runs them, against a real PostgreSQL: a publish reaches a client of the serving process as
 * {@code list_changed}.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(120)
class StoreCliTest {
  @TempDir
  Path dir;

  @Test
  void publishServeHistoryRollback() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: v1\n---\nHello\n");
    Result first = run(List.of("publish", dir.toString(), "--store", url, "--author", "alice"));
    assertThat(first.status).as(first.err).isZero();
    // A new store's schema is made without a word about how (Flyway, its modes).
    assertThat(first.err).doesNotContainIgnoringCase("flyway").doesNotContain("outOfOrder");
    assertThat(first.out)
        .contains("as library version 1: 1 added, 0 changed, 0 deleted; 1 files in the store");
    Result again = run(List.of("publish", dir.toString(), "--store", url));
    assertThat(again.status).isZero();
    assertThat(again.out)
        .contains("nothing to publish: the store already has these 1 files at version 1");

    Files.writeString(dir.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHi\n");
    Result refused = run(List.of("publish", dir.toString(), "--store", url));
    assertThat(refused.status).isEqualTo(Main.CHECK_FAILED);
    assertThat(refused.err)
        .containsPattern("broken\\.prompt\\.md:\\d+: error")
        .contains("nothing was published");
    Files.delete(dir.resolve("broken.prompt.md"));

    List<String> command = java();
    command.addAll(List.of("serve", "--http", "0", "--store", url));
    Process server = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    LinkedBlockingQueue<String> serverErr = CliProcessTest.lines(server.getErrorStream());
    Process watcher = null;
    try {
      String serving = CliProcessTest.awaitLine(serverErr, " on http://");
      assertThat(serving).contains("serving 1 prompt(s)");
      Matcher m = Pattern.compile("on (http://\\S+)").matcher(serving);
      assertThat(m.find()).isTrue();
      List<String> watch = java();
      watch.addAll(List.of("watch", "--url", m.group(1)));
      watcher = new ProcessBuilder(watch).start();
      LinkedBlockingQueue<String> watched = CliProcessTest.lines(watcher.getInputStream());
      CliProcessTest.lines(watcher.getErrorStream());
      CliProcessTest.awaitLine(watched, "watching");

      Files.writeString(dir.resolve("bye.prompt.md"), "Bye\n");
      Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: v2\n---\nHello!\n");
      Result second = run(List.of("publish", dir.toString(), "--store", url, "--author", "bob"));
      assertThat(second.out).contains("library version 2: 1 added, 1 changed");
      CliProcessTest.awaitLine(watched, "prompts changed: 2 prompt(s)");

      Result history = run(List.of("history", "hello", "--store", url));
      assertThat(history.status).as(history.err).isZero();
      assertThat(history.out.lines().toList()).hasSize(3);
      assertThat(history.out)
          .containsPattern("hello\\.prompt\\.md\t2\t2\t\\S+\tbob\t[0-9a-f]{64}\t-")
          .containsPattern("hello\\.prompt\\.md\t1\t1\t\\S+\talice\t");
      Result table = run(List.of("history", "hello", "--store", url, "--table"));
      assertThat(table.status).as(table.err).isZero();
      assertThat(table.out)
          .containsPattern(
              "(?m)^PATH +VERSION +LIBRARY_VERSION +TIME +AUTHOR +SHA256 +DELETED +LABELS$")
          .containsPattern("(?m)^hello\\.prompt\\.md +2 +2 +\\S+ +bob +[0-9a-f]{12} +- +latest$")
          .doesNotContainPattern("[0-9a-f]{13}");
      Result json = run(List.of("history", "hello", "--store", url, "--json"));
      assertThat(json.status).as(json.err).isZero();
      assertThat(json.out)
          .startsWith("{\"versions\":[{\"path\":\"hello.prompt.md\",\"version\":2,")
          .contains("\"author\":\"alice\"")
          .contains("\"moves\":[]");
      Result back = run(List.of("rollback", "hello", "1", "--store", url, "--author", "carol"));
      assertThat(back.status).as(back.err).isZero();
      assertThat(back.out).contains("rolled 'hello' back to version 1 as library version 3");
      Result none = run(List.of("rollback", "hello", "7", "--store", url));
      assertThat(none.status)
          .as("a version the store does not hold is a user error")
          .isEqualTo(Main.USAGE);
      assertThat(none.err).contains("has no version 7");
      String all = first.out
          + first.err
          + refused.err
          + second.err
          + history.err
          + back.err
          + none.err
          + String.join("\n", serverErr);
      assertThat(all).doesNotContain(TestPostgres.PASSWORD);
    } finally {
      if (watcher != null) {
        watcher.destroy();
      }
      server.destroy();
    }
    assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aStoreIsNamedOrItIsAUsageError() throws Exception {
    Result missing = run(List.of("history", "x"));
    assertThat(missing.status).isEqualTo(Main.USAGE);
    assertThat(missing.err).contains("--store URL or PROMPTD_STORE");
    Result bad = run(List.of("history", "x", "--store", "mysql://u:TopSecret@h/db"));
    assertThat(bad.status).isEqualTo(Main.USAGE);
    assertThat(bad.err).contains("scheme 'mysql'").doesNotContain("TopSecret");
  }

  @Test
  void userMistakesExitTwoADryRunWritesNothingAndTheAuthorIsTheGitUser() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: v1\n---\nHello\n");
    Result dry = run(List.of("publish", dir.toString(), "--store", url, "--dry-run"));
    assertThat(dry.status).as(dry.err).isZero();
    assertThat(dry.out)
        .contains("dry run: publishing " + dir + " would make library version 1: 1 added")
        .contains("  added\thello.prompt.md")
        .contains("nothing was written");

    Result unknown = run(List.of("history", "hello", "--store", url));
    assertThat(unknown.status).as("nothing was published, so no 'hello'").isEqualTo(Main.USAGE);
    assertThat(unknown.err).contains("names 'hello'");
    Result noSuchPrompt = run(List.of("rollback", "nope", "1", "--store", url));
    assertThat(noSuchPrompt.status).isEqualTo(Main.USAGE);
    Result noFolder = run(List.of("publish", dir.resolve("missing").toString(), "--store", url));
    assertThat(noFolder.status).isEqualTo(Main.USAGE);
    assertThat(noFolder.err).contains("not a folder");

    Path home = Files.createDirectories(dir.resolve("home"));
    Files.writeString(home.resolve(".gitconfig"), "[user]\n\tname = Ada Lovelace\n");
    Result published = run(
        List.of("publish", dir.toString(), "--store", url),
        Map.of("HOME", home.toString(), "GIT_CONFIG_NOSYSTEM", "1", "USER", "not-git"));
    assertThat(published.status).as(published.err).isZero();
    assertThat(run(List.of("history", "hello", "--store", url)).out)
        .containsPattern("hello\\.prompt\\.md\t1\t1\t\\S+\tAda Lovelace\t");
  }

  static List<String> java() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    return command;
  }

  static Result run(List<String> args) throws Exception {
    return run(args, Map.of());
  }

  static Result run(List<String> args, Map<String, String> env) throws Exception {
    List<String> command = java();
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("PROMPTD_STORE");
    builder.environment().putAll(env);
    Process p = builder.start();
    p.getOutputStream().close();
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> CliProcessTest.read(p.getErrorStream()));
    String out = CliProcessTest.read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished: " + args).isTrue();
    return new Result(p.exitValue(), out, err.get());
  }

  record Result(int status, String out, String err) {}
}
