package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .github/workflows/release.yml}, which runs only on GitHub: linted by the pinned
 * {@code action-validator} (interop/tools; a workflow with a mistake fails it, so the lint can
 * fail); every {@code bin/} script it runs exists and is called with the arguments its usage line
 * takes; it builds on the five platforms' runners and publishes with GitHub OIDC. What each script
 * does is tested where the script is (docs/engineering/release.md lists them).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReleaseWorkflowTest {
  static final Path WORKFLOW = Peers.ROOT.resolve(".github/workflows/release.yml");
  static final Path LINTER = Peers.ROOT.resolve("interop/tools/node_modules/.bin/action-validator");

  /**
   * The scripts the workflow runs that other branches of issue 37 add (bin/release-server-json by
   * the MCPB work, bin/publish-npm by the npm work): missing in this branch, so expected missing
   * here. Empty this at the merge; the test then fails for any of them that is missing, and already
   * fails for one that exists while still listed.
   */
  static final Set<String> PENDING = Set.of();

  /**
   * Each script's arguments as its usage line gives them (the shared release layout of issue 37).
   */
  private static final Map<String, String> USAGE = Map.of(
      "bin/release", "( --no-build)?( \\S+)?",
      "bin/release-npm", " \\S+",
      "bin/release-mcpb", " \\S+",
      "bin/release-server-json", " \\S+",
      "bin/image", "( --no-build)?( \\S+)?",
      "bin/publish-npm", " \\S+/npm( --registry \\S+)?( --tag \\S+)?",
      "bin/release-version", "( --tag \\S+)?");

  private static final Pattern INVOCATION =
      Pattern.compile("(?:^|[\\s(])(bin/[A-Za-z0-9_.-]+)([^)|>;&]*)");

  @TempDir
  Path dir;

  @Test
  void theLinterPassesItAndFailsABrokenCopy() throws Exception {
    Result lint = lint(WORKFLOW);
    assertThat(lint.status()).as("action-validator: " + lint.out() + lint.err()).isZero();
    // The same workflow with a job's steps misspelt: the linter must say so, else a pass above
    // proves nothing.
    String text = Files.readString(WORKFLOW, UTF_8);
    assertThat(text).contains("\n    steps:\n");
    Path broken = dir.resolve("release.yml");
    Files.writeString(broken, text.replaceFirst("\n    steps:\n", "\n    stepz:\n"), UTF_8);
    Result refused = lint(broken);
    assertThat(refused.status()).isNotZero();
    assertThat(refused.out() + refused.err()).contains("stepz");
  }

  @Test
  void everyBinScriptItRunsExistsAndIsCalledAsItsUsageSays() throws Exception {
    Map<String, List<String>> calls = invocations();
    assertThat(calls)
        .as("what the workflow runs")
        .containsKeys("bin/release", "bin/image", "bin/release-version", "bin/publish-npm");
    Set<String> missing = new TreeSet<>();
    for (Map.Entry<String, List<String>> call : calls.entrySet()) {
      String script = call.getKey();
      assertThat(USAGE).as("a usage for " + script).containsKey(script);
      for (String args : call.getValue()) {
        assertThat(args).as(script + args).matches(USAGE.get(script));
      }
      Path file = Peers.ROOT.resolve(script);
      if (PENDING.contains(script)) {
        assertThat(file)
            .as(script + " exists now: remove it from ReleaseWorkflowTest.PENDING")
            .doesNotExist();
        missing.add(script);
      } else {
        assertThat(file).as(script).isRegularFile();
        assertThat(Files.isExecutable(file)).as(script + " is executable").isTrue();
        assertThat(Files.readString(file, UTF_8)).as(script).startsWith("#!/bin/sh\n");
      }
    }
    assertThat(missing).as("PENDING lists only scripts the workflow runs").isEqualTo(PENDING);
  }

  @Test
  void itBuildsOnEachPlatformsRunnerAndPublishesWithOidc() throws Exception {
    String text = Files.readString(WORKFLOW, UTF_8);
    for (String[] p : List.of(
        new String[] {"linux-x64", "ubuntu-latest"},
        new String[] {"linux-arm64", "ubuntu-24.04-arm"},
        new String[] {"darwin-arm64", "macos-14"},
        new String[] {"darwin-x64", "macos-13"},
        new String[] {"win32-x64", "windows-latest"})) {
      assertThat(text).contains("- platform: " + p[0] + "\n            runner: " + p[1] + "\n");
    }
    assertThat(text)
        .contains(
            "tags: [\"v*\"]",
            "id-token: write",
            "NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
            "./mcp-publisher login github-oidc",
            "./mcp-publisher publish target/release/server.json",
            "podman push",
            "gh release upload");
    Matcher uses = Pattern.compile("uses: (\\S+)").matcher(text);
    while (uses.find()) {
      assertThat(uses.group(1))
          .as("an action pinned to a major version")
          .matches("[\\w-]+/[\\w-]+@v\\d+");
    }
  }

  /**
   * bin/release-version, the workflow's first step: the tag must be v and the version, and no
   * snapshot is released.
   */
  @Test
  void theVersionCheckRefusesAnotherTagAndASnapshot() throws Exception {
    Path root = Files.createDirectories(dir.resolve("checkout/bin"));
    Files.copy(Peers.ROOT.resolve("bin/release-version"), root.resolve("release-version"));
    Path pom = root.resolveSibling("pom.xml");
    Files.writeString(
        pom,
        "<project>\n  <version>1.4.0</version>\n  <parent>\n    <version>9</version>\n",
        UTF_8);
    assertThat(version(root)).isEqualTo(new Result(0, "1.4.0\n", ""));
    assertThat(version(root, "--tag", "v1.4.0")).isEqualTo(new Result(0, "1.4.0\n", ""));
    Result other = version(root, "--tag", "v1.4.1");
    assertThat(other.status()).isEqualTo(1);
    assertThat(other.err())
        .isEqualTo(
            "release-version: the tag v1.4.1 is not v1.4.0, the version in pom.xml: tag v1.4.0, or set"
                + " the version and tag again\n");
    assertThat(version(root, "--tag").status()).isEqualTo(2);
    Files.writeString(pom, "<project>\n  <version>1.5.0-SNAPSHOT</version>\n", UTF_8);
    Result snapshot = version(root, "--tag", "v1.5.0-SNAPSHOT");
    assertThat(snapshot.status()).isEqualTo(1);
    assertThat(snapshot.err()).contains("1.5.0-SNAPSHOT is a snapshot, which is not released");
    // The checkout's own: the root pom's version, as the archives and packages carry it.
    String real = Files.readString(Peers.ROOT.resolve("pom.xml"), UTF_8);
    Matcher m = Pattern.compile("\n  <version>(.*)</version>").matcher(real);
    assertThat(m.find()).isTrue();
    assertThat(version(Peers.ROOT.resolve("bin")).out()).isEqualTo(m.group(1) + "\n");
  }

  /**
   * Each bin/ script the workflow's run lines call (step names and comments aside), with its
   * arguments per call.
   */
  static Map<String, List<String>> invocations() throws Exception {
    Map<String, List<String>> calls = new LinkedHashMap<>();
    for (String line : Files.readAllLines(WORKFLOW, UTF_8)) {
      String code = line.strip();
      if (code.startsWith("#") || code.startsWith("- name:") || code.startsWith("name:")) {
        continue;
      }
      Matcher m = INVOCATION.matcher(code);
      while (m.find()) {
        calls.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(2).stripTrailing());
      }
    }
    return calls;
  }

  private Result lint(Path workflow) throws Exception {
    assertThat(LINTER).as("the pinned linter (cd interop/tools && npm ci)").exists();
    return Processes.run(
        List.of(LINTER.toString(), workflow.toString()),
        Map.of("PATH", System.getenv("PATH")),
        dir,
        Duration.ofSeconds(60));
  }

  private Result version(Path bin, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("dash", bin.resolve("release-version").toString()));
    command.addAll(List.of(args));
    return Processes.run(
        command, Map.of("PATH", System.getenv("PATH")), dir, Duration.ofSeconds(30));
  }
}
