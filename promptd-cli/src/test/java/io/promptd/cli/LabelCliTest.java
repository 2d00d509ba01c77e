package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.testing.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd label set|list|rm}, {@code history} showing labels and their moves, and
 * {@code publish --label}, as a user runs them against a real PostgreSQL.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class LabelCliTest {
  @TempDir
  Path dir;

  /**
   * Runs the commands of docs/lifecycle.md's shell block under {@code heading} as written, with
   * {@code "$PROMPTD_STORE"} the store's URL: each succeeds, and the last prints what the block's
   * comments show.
   */
  private static void runAsTheDocShows(String heading, String url) throws Exception {
    String block = DocLines.block("lifecycle.md", heading, "sh");
    Result last = null;
    for (String line : block.lines().filter(l -> !l.startsWith("#")).toList()) {
      String command = line.contains(" # ") ? line.substring(0, line.indexOf(" # ")) : line;
      List<String> words = new ArrayList<>(List.of(command.strip().split("\\s+")));
      assertThat(words.removeFirst()).as(line).isEqualTo("promptd");
      words.replaceAll(w -> w.equals("\"$PROMPTD_STORE\"") ? url : w);
      last = run(words.toArray(String[]::new));
      assertThat(last.status()).as(line + ": " + last.err()).isZero();
    }
    assertThat(last).as(heading + ": a command").isNotNull();
    assertThat(last.out())
        .as("what docs/lifecycle.md shows under " + heading)
        .isEqualTo(String.join("\n", DocLines.printed(block)) + "\n");
  }

  private static Result run(String... args) throws Exception {
    return StoreCliTest.run(List.of(args));
  }

  @Test
  void setListRemoveAndHistoryShowsEveryMove() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    assertThat(run("publish", dir.toString(), "--store", url).status()).isZero();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello again\n");
    assertThat(run("publish", dir.toString(), "--store", url).status()).isZero();

    Result set = run("label", "set", "hello", "1", "staging", "--store", url);
    assertThat(set.status()).as(set.err()).isZero();
    assertThat(set.out()).contains("label 'staging' on hello.prompt.md: - -> 1");
    assertThat(run("label", "set", "hello", "1", "staging", "--store", url).out())
        .contains("already points at version 1");
    assertThat(run("label", "list", "--store", url).out())
        .isEqualTo("PATH\tLABEL\tVERSION\nhello.prompt.md\tstaging\t1\n");

    String user = System.getProperty("user.name");
    Result history = run("history", "hello", "--store", url);
    assertThat(history.status()).as(history.err()).isZero();
    assertThat(history.out())
        .containsPattern("hello\\.prompt\\.md\t2\t2\t\\S+\t[^\t]+\t[0-9a-f]{64}\t-\tlatest\n")
        .containsPattern("hello\\.prompt\\.md\t1\t1\t\\S+\t[^\t]+\t[0-9a-f]{64}\t-\tstaging\n")
        .contains("\nPATH\tLABEL\tFROM\tTO\tLIBRARY_VERSION\tTIME\tAUTHOR\n")
        .containsPattern("hello\\.prompt\\.md\tstaging\t-\t1\t2\t\\S+\t" + user + "\n");

    Result rm = run("label", "rm", "hello", "staging", "--store", url);
    assertThat(rm.status()).as(rm.err()).isZero();
    assertThat(rm.out()).contains("label 'staging' on hello.prompt.md: 1 -> -");
    assertThat(run("label", "list", "hello", "--store", url).out())
        .isEqualTo("PATH\tLABEL\tVERSION\n");
    assertThat(run("history", "hello", "--store", url).out())
        .containsPattern("hello\\.prompt\\.md\tstaging\t1\t-\t2\t\\S+\t" + user + "\n");
  }

  @Test
  void promoteMovesAReleaseEveryFileInOneStep() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("a.prompt.md"), "A\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B\n");
    Files.writeString(dir.resolve("c.prompt.md"), "C\n");
    assertThat(
            run("publish", dir.toString(), "--store", url, "--label", "staging").status())
        .isZero();
    assertThat(run("label", "set", "c", "1", "production", "--store", url).status())
        .isZero();
    Files.writeString(dir.resolve("a.prompt.md"), "A2\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B2\n");
    assertThat(
            run("publish", dir.toString(), "--store", url, "--label", "staging").status())
        .isZero();
    assertThat(run("label", "rm", "c", "staging", "--store", url).status()).isZero();
    String before = run("label", "list", "--store", url).out();

    Result dry = run("label", "promote", "staging", "production", "--store", url, "--dry-run");
    assertThat(dry.status()).as(dry.err()).isZero();
    assertThat(dry.out())
        .isEqualTo("would move label 'production' on a.prompt.md: - -> 2\n"
            + "would move label 'production' on b.prompt.md: - -> 2\n"
            + "would move label 'production' on c.prompt.md: 1 -> -\n"
            + "3 file(s) would move; nothing was written (--dry-run)\n");
    assertThat(run("label", "list", "--store", url).out()).isEqualTo(before);

    // docs/lifecycle.md's lines, run as written: they print what the page shows.
    runAsTheDocShows("### Promoting a release: `label promote`", url);
    assertThat(run("label", "list", "--store", url).out())
        .isEqualTo("PATH\tLABEL\tVERSION\n"
            + "a.prompt.md\tproduction\t2\na.prompt.md\tstaging\t2\n"
            + "b.prompt.md\tproduction\t2\nb.prompt.md\tstaging\t2\n");
    String user = System.getProperty("user.name");
    assertThat(run("history", "a", "--store", url).out())
        .containsPattern("a\\.prompt\\.md\tproduction\t-\t2\t2\t\\S+\t" + user + "\n")
        .contains("\nPROMOTION\tFROM\tTO\tLIBRARY_VERSION\tTIME\tAUTHOR\tMOVES\n")
        .containsPattern("\n1\tstaging\tproduction\t2\t\\S+\t" + user
            + "\ta\\.prompt\\.md: - -> 2, b\\.prompt\\.md: - -> 2, c\\.prompt\\.md: 1 -> -\n");
    // docs/lifecycle.md: promptd history --store "$PROMPTD_STORE", one line per promotion.
    Result promotions = run("history", "--store", url);
    assertThat(promotions.status()).as(promotions.err()).isZero();
    assertThat(promotions.out())
        .matches("PROMOTION\tFROM\tTO\tLIBRARY_VERSION\tTIME\tAUTHOR\tMOVES\n"
            + "1\tstaging\tproduction\t2\t\\S+\t" + user
            + "\ta\\.prompt\\.md: - -> 2, b\\.prompt\\.md: - -> 2, c\\.prompt\\.md: 1 -> -\n");
    assertThat(run("label", "promote", "staging", "production", "--store", url).out())
        .isEqualTo("label 'production' already points where 'staging' does; nothing moved\n");

    // docs/lifecycle.md's rollback: promptd label revert puts back what a promotion moved.
    Files.writeString(dir.resolve("a.prompt.md"), "A3\n");
    assertThat(
            run("publish", dir.toString(), "--store", url, "--label", "staging").status())
        .isZero();
    assertThat(run("label", "promote", "staging", "production", "--store", url).out())
        .isEqualTo("label 'production' on a.prompt.md: 2 -> 3\n"
            // publish --label staging put c back on staging, and so on production
            + "label 'production' on c.prompt.md: - -> 1\n"
            + "promoted 'staging' to 'production': 2 file(s) moved as library version 3\n");
    String released = run("label", "list", "--store", url).out();
    Result wouldRevert = run("label", "revert", "2", "--store", url, "--dry-run");
    assertThat(wouldRevert.status()).as(wouldRevert.err()).isZero();
    assertThat(wouldRevert.out())
        .isEqualTo("would move label 'production' on a.prompt.md: 3 -> 2\n"
            + "would move label 'production' on c.prompt.md: 1 -> -\n"
            + "2 file(s) would move back; nothing was written (--dry-run)\n");
    assertThat(run("label", "list", "--store", url).out()).isEqualTo(released);
    runAsTheDocShows("### Rolling a promotion back: `label revert`", url);
    assertThat(run("history", "--store", url).out())
        .startsWith("PROMOTION\tFROM\tTO\tLIBRARY_VERSION\tTIME\tAUTHOR\tMOVES\n")
        .containsPattern("\n3\treverts #2\tproduction\t3\t\\S+\t" + user
            + "\ta\\.prompt\\.md: 3 -> 2, c\\.prompt\\.md: 1 -> -\n");
    // A revert is a promotion: reverting it releases again.
    assertThat(run("label", "revert", "3", "--store", url).out())
        .endsWith("reverted promotion #3: 2 file(s) moved back as promotion #4, library version"
            + " 3\n");
    assertThat(run("label", "list", "--store", url).out()).isEqualTo(released);
    // Someone moved production since: refused whole, exit 7, nothing moved.
    assertThat(run("label", "set", "a", "2", "production", "--store", url).status())
        .isZero();
    String moved = run("label", "list", "--store", url).out();
    Result conflict = run("label", "revert", "4", "--store", url);
    assertThat(conflict.status()).isEqualTo(Main.CONFLICT);
    assertThat(conflict.err())
        .isEqualTo("promptd: cannot revert promotion #4: 'production' moved since on a.prompt.md"
            + " (see promptd history --store); no label was moved\n");
    assertThat(run("label", "list", "--store", url).out()).isEqualTo(moved);
    Result unknown = run("label", "revert", "99", "--store", url);
    assertThat(unknown.status()).isEqualTo(Main.USAGE);
    assertThat(unknown.err()).contains("there is no promotion #99");

    Result none = run("label", "promote", "review", "production", "--store", url);
    assertThat(none.status()).isEqualTo(Main.USAGE);
    assertThat(none.err()).contains("the label 'review' points at no file");
    Result latest = run("label", "promote", "latest", "production", "--store", url);
    assertThat(latest.status()).isEqualTo(Main.USAGE);
    assertThat(latest.err()).contains("publish --label production");
  }

  @Test
  void publishWithALabelMovesItAndARefusedPublishMovesNothing() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("a.prompt.md"), "A\n");
    Files.writeString(dir.resolve("b.prompt.md"), "B\n");
    Result first = run("publish", dir.toString(), "--store", url, "--label", "staging");
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.out()).contains("label 'staging' points at the 2 files of library version 1");

    Files.writeString(dir.resolve("a.prompt.md"), "A2\n");
    Files.writeString(dir.resolve("broken.prompt.md"), "---\ndescription: [unclosed\n---\nHi\n");
    Result refused = run("publish", dir.toString(), "--store", url, "--label", "staging");
    assertThat(refused.status()).isEqualTo(Main.CHECK_FAILED);
    assertThat(run("label", "list", "--store", url).out())
        .isEqualTo("PATH\tLABEL\tVERSION\na.prompt.md\tstaging\t1\nb.prompt.md\tstaging\t1\n");

    Files.delete(dir.resolve("broken.prompt.md"));
    Result dry = run("publish", dir.toString(), "--store", url, "--label", "staging", "--dry-run");
    assertThat(dry.status()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("label 'staging' would point at every file");
    assertThat(run("label", "list", "a", "--store", url).out()).contains("a.prompt.md\tstaging\t1");
    Result second = run("publish", dir.toString(), "--store", url, "--label", "staging");
    assertThat(second.status()).as(second.err()).isZero();
    assertThat(run("label", "list", "--store", url).out())
        .isEqualTo("PATH\tLABEL\tVERSION\na.prompt.md\tstaging\t2\nb.prompt.md\tstaging\t1\n");
    Result badLabel = run("publish", dir.toString(), "--store", url, "--label", "latest");
    assertThat(badLabel.status()).isEqualTo(Main.USAGE);
    assertThat(badLabel.err()).contains("'latest' always means each file's newest version");
  }

  @Test
  void badInputExitsTwoAndWritesNothing() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    Files.writeString(dir.resolve("hello.prompt.md"), "Hello\n");
    assertThat(run("publish", dir.toString(), "--store", url).status()).isZero();
    record Case(List<String> args, String says) {}
    for (Case c : List.of(
        new Case(List.of("set", "hello", "1", "latest"), "cannot be set or removed"),
        new Case(List.of("rm", "hello", "latest"), "cannot be set or removed"),
        new Case(List.of("set", "hello", "1", "Prod"), "'Prod' is not a label name"),
        new Case(List.of("set", "hello", "one", "prod"), "needs a version number"),
        new Case(List.of("set", "nope", "1", "prod"), "names 'nope'"),
        new Case(List.of("set", "hello", "9", "prod"), "'hello.prompt.md' has no version 9"),
        new Case(List.of("rm", "hello", "prod"), "'hello' has no label 'prod'"),
        new Case(
            List.of("move", "hello"),
            "set, list, rm, split, promote, revert, protect or unprotect"),
        new Case(List.of("revert", "one"), "label revert needs a promotion number"),
        new Case(List.of("revert"), "label revert takes a promotion number"),
        new Case(List.of("set", "hello", "1"), "takes a name, a version and a label"))) {
      List<String> args = new ArrayList<>(List.of("label"));
      args.addAll(c.args());
      args.addAll(List.of("--store", url));
      Result r = StoreCliTest.run(args);
      assertThat(r.status()).as(c.args().toString()).isEqualTo(Main.USAGE);
      assertThat(r.err()).as(c.args().toString()).contains(c.says());
    }
    assertThat(run("label", "list", "--store", url).out()).isEqualTo("PATH\tLABEL\tVERSION\n");
    assertThat(run("history", "hello", "--store", url).out().lines()).hasSize(2);
  }
}
