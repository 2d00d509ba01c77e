package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store commands' options and exit statuses that need no database. */
class StoreCommandTest {
  private static final String URL = "postgresql://u:Secret1@127.0.0.1:1/db?sslmode=disable";

  @TempDir
  Path dir;

  private Map<String, String> env(boolean gitUser) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    if (gitUser) {
      Files.writeString(home.resolve(".gitconfig"), "[user]\n\tname = Ada Lovelace\n");
    }
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("USER", "login-name");
    return env;
  }

  @Test
  void theAuthorIsTheGitUserElseUserElseUnknown() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("prompts"));
    List<String> args = List.of(folder.toString(), "--store", URL);
    assertThat(StoreCommand.parse("publish", args, env(true)).author()).isEqualTo("Ada Lovelace");
    Files.delete(dir.resolve("home/.gitconfig"));
    assertThat(StoreCommand.parse("publish", args, env(false)).author()).isEqualTo("login-name");
    Map<String, String> noUser = env(false);
    noUser.remove("USER");
    assertThat(StoreCommand.parse("publish", args, noUser).author()).isEqualTo("unknown");
    List<String> named = List.of(folder.toString(), "--store", URL, "--author", "bob");
    assertThat(StoreCommand.parse("publish", named, env(true)).author()).isEqualTo("bob");
  }

  @Test
  void dryRunIsAPublishOption() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("prompts"));
    Map<String, String> env = env(false);
    assertThat(StoreCommand.parse("publish", List.of(folder.toString(), "--store", URL), env)
            .dryRun())
        .isFalse();
    assertThat(StoreCommand.parse(
                "publish", List.of("--dry-run", folder.toString(), "--store", URL), env)
            .dryRun())
        .isTrue();
    assertThatThrownBy(
            () -> StoreCommand.parse("history", List.of("x", "--dry-run", "--store", URL), env))
        .isInstanceOf(UsageException.class)
        .hasMessage("--dry-run is for publish, not history");
  }

  @Test
  void aStoreThatIsAwayFailsWithFourAndAMissingFolderIsAUsageError() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    int status =
        StoreCommand.parse("history", List.of("x", "--store", URL), env(false)).run(out, errors);
    assertThat(status).isEqualTo(Main.FAILED);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("cannot connect: the prompt store is unreachable or failed (the log says why)")
        .doesNotContain("Secret1");
    assertThat(
            Main.run(List.of("publish", dir.resolve("missing").toString(), "--store", URL), errors))
        .isEqualTo(Main.USAGE);
  }
}
