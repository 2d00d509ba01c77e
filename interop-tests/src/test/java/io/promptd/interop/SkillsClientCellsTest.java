package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TypeScript SDK's own Skills extension client ({@code SkillsClient} from {@code
 * @modelcontextprotocol/client/ext/skills} 2.4.0, a client pinned to 2026-07-28) against {@code promptd serve}, over
 * stdio and Streamable HTTP, serving the example prompts with three skills beside them: {@code ops/incident-review}
 * (a reference and a PNG), {@code ops/incident-review/postmortem} nested inside it, and {@code deploy-check} under
 * {@code .claude/skills} (a file name with a space). {@code interop/ts-skills-client.mjs} lists, gets, reads every file
 * through the client's verifying read, walks the directories and gets each skill's prompt; the tampered cell changes
 * two files behind the entries of a server started with {@code --no-watch} and expects the client to refuse them,
 * then to verify them under the entry {@code skills/get} gives afterwards.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SkillsClientCellsTest {
  /**
   * Skills added to {@link PythonSdkClientTest#SKILLS}: a nested one and a project's
   * {@code .claude/skills} one.
   */
  static final Path MORE_SKILLS =
      Peers.ROOT.resolve("interop-tests/src/test/resources/skills-more");

  static final String CELL = "TS SDK v2 SkillsClient → promptd";
  static final String ERA = "modern 2026-07-28";
  static final String CHECKLIST = "skill://ops/incident-review/references/checklist.md";
  static final String ROLLBACK = "skill://deploy-check/references/roll%20back.md";

  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  @ParameterizedTest(name = "TS SDK SkillsClient over {0}")
  @ValueSource(strings = {"stdio", "http"})
  void skillsClientVerifiesEverySkill(String transport) throws Exception {
    List<String> args = new ArrayList<>(List.of(
        "ts-skills-client.mjs",
        "--no-such",
        "skill://ops/no-such-skill/SKILL.md",
        "--no-such",
        CHECKLIST));
    String report = run(transport, library(), args);
    assertThat(report)
        .contains("\"ok\":true", "\"version\":\"2026-07-28\"")
        .contains("\"supported\":true", "\"directoryRead\":true")
        .contains(
            "\"skills\":[\"skill://deploy-check/SKILL.md\",\"skill://ops/incident-review/SKILL.md\","
                + "\"skill://ops/incident-review/postmortem/SKILL.md\"]",
            "\"listRequests\":2",
            "\"cache\":{\"ttlMs\":10000,\"cacheScope\":\"public\"}",
            "\"nonCanonicalUris\":[]")
        .contains("\"getEqualsList\":3", "\"filesVerified\":9", "\"blobs\":1")
        .contains("\"directoriesRead\":9")
        .contains("\"noSuch\":{\"skill://ops/no-such-skill/SKILL.md\":-32602,\"" + CHECKLIST
            + "\":-32602}")
        .contains("\"prompts\":10", "\"skillPrompts\":3");
    Matrix.record(
        CELL,
        transport,
        ERA,
        "supported, directoryRead; list() of 3 skills over 2 pages (nested, .claude/skills), get() = each"
            + " entry, 9 files read and verified (size, digest, SKILL.md frontmatter; a PNG blob, a name with a"
            + " space, percent-encoded), -32602 from get() of a missing skill and of a file; the tree walked"
            + " with readDirectory() = each entry's files; each skill's prompt embeds the verified SKILL.md");
  }

  @ParameterizedTest(name = "TS SDK SkillsClient over {0}, files changed behind the entries")
  @ValueSource(strings = {"stdio", "http"})
  void skillsClientRefusesChangedFiles(String transport) throws Exception {
    Path library = library();
    List<String> args = new ArrayList<>(List.of(
        "ts-skills-client.mjs",
        "--tamper-bytes",
        CHECKLIST + "=" + library.resolve("ops/incident-review/references/checklist.md"),
        "--tamper-length",
        ROLLBACK + "=" + library.resolve(".claude/skills/deploy-check/references/roll back.md")));
    String report = run(transport, library, args, "--no-watch");
    String reasons = "{\"" + CHECKLIST + "\":\"digest\",\"" + ROLLBACK + "\":\"size\"}";
    String recovered = "{\"" + CHECKLIST + "\":\"verified\",\"" + ROLLBACK + "\":\"verified\"}";
    assertThat(report)
        .contains("\"ok\":true", "\"filesVerified\":9")
        .contains("\"tampered\":" + reasons, "\"afterGet\":" + recovered)
        .contains("\"untamperedVerified\":7");
    Matrix.record(
        CELL + " --no-watch, 2 files changed on disk after list()",
        transport,
        ERA,
        "read() throws SkillVerificationError: digest (one byte changed), size (a line added); the"
            + " entry get() gives afterwards describes the new bytes (the read made promptd read the skill"
            + " again), under which both verify; the 7 other files still verify");
  }

  /** A copy of the example prompts with the three skills beside them. */
  private Path library() throws Exception {
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    PromptdServer.copy(PythonSdkClientTest.SKILLS, library);
    return PromptdServer.copy(MORE_SKILLS, library);
  }

  private static String run(String transport, Path library, List<String> args, String... flags)
      throws Exception {
    Process server = PromptdServer.target(transport, library, args, flags);
    try {
      return ServerCellsTest.runNode(args);
    } finally {
      if (server != null) {
        server.destroy();
        server.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }
}
