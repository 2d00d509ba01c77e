package io.promptd.library;

import static io.promptd.library.Files2.formatted;
import static io.promptd.library.Files2.write;
import static io.promptd.library.HotReloadTest.eventually;
import static io.promptd.library.SkillsTest.skill;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.index.PromptVersions;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skills offered as prompts, for clients without the Skills extension: one prompt per skill, named
 * by its path, that renders its {@code SKILL.md} embedded, its other text files embedded and the
 * rest linked (see {@link SkillPromptFilesTest}), and the task; prompt files win a name; front
 * matter and the library option turn it off; hot reload keeps the prompts in step with the skills.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillPromptsTest {
  private static final String REVIEW =
      "---\nname: incident-review\ndescription: Reviews an incident.\n"
          + "argument-hint: the incident's ticket\n---\n# Steps\nRead the checklist.\n";

  @TempDir
  Path root;

  private void library() {
    write(root, "summarize.prompt.md", "---\ndescription: Sums up.\n---\nSum up.\n");
    write(root, "ops/incident-review/SKILL.md", REVIEW);
    write(root, "ops/incident-review/references/checklist.md", "1. Timeline\n");
    write(root, "ops/incident-review/assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    write(root, ".claude/skills/deploy/SKILL.md", skill("deploy", ""));
    write(root, "quiet/SKILL.md", skill("quiet", "user-invocable: false\n"));
    write(root, "clash.prompt.md", "---\ndescription: The file's own.\n---\nMine.\n");
    write(root, "clash/SKILL.md", skill("clash", ""));
  }

  private Library open(LibraryOptions options) throws IOException {
    return Library.open(
        LibrarySource.folders(List.of(root)),
        options.toBuilder().cacheDirectory(null).build());
  }

  private static List<String> names(Library library) {
    return library.catalog().all().stream().map(PromptDefinition::name).toList();
  }

  @Test
  void aPromptsVersionIsTheDigestOfItsFileAndFollowsAnEdit() throws Exception {
    library();
    try (Library library = open(LibraryOptions.defaults())) {
      assertThat(library.promptVersion("summarize"))
          .hasValue(PromptVersions.sha256(Files.readAllBytes(root.resolve("summarize.prompt.md"))));
      assertThat(library.promptVersion("ops-incident-review"))
          .hasValue(PromptVersions.sha256(
              Files.readAllBytes(root.resolve("ops/incident-review/SKILL.md"))));
      assertThat(library.promptVersion("quiet")).isEmpty(); // not offered as a prompt
      assertThat(library.promptVersion("nothing")).isEmpty();
    }
  }

  @Test
  void eachSkillIsAPromptNamedByItsPathAndAPromptFileKeepsItsName() throws Exception {
    library();
    try (Library library = open(LibraryOptions.defaults());
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(names(library))
          .containsExactly("clash", "deploy", "ops-incident-review", "summarize");
      assertThat(formatted(library))
          .containsExactly(
              root + "/clash/SKILL.md:1: warning: skill 'clash' is not offered as a prompt:"
                  + " a prompt file is named 'clash'");
      assertThat(mcp.call("prompts/get", "{\"name\":\"clash\"}")).contains("Mine.");
      String list = mcp.call("prompts/list", "{}");
      assertThat(list).contains("""
              {"name":"ops-incident-review","title":"incident-review (skill)",\
              "description":"Reviews an incident.","arguments":[{"name":"task",\
              "description":"the incident's ticket"}]}""");
    }
  }

  @Test
  void theRenderedPromptEmbedsSkillMdAndItsTextFilesLinksTheOthersAndEndsWithTheTask()
      throws Exception {
    library();
    try (Library library = open(LibraryOptions.defaults());
        McpHarness mcp = new McpHarness(library.catalog())) {
      String got = mcp.call(
          "prompts/get",
          "{\"name\":\"ops-incident-review\",\"arguments\":{\"task\":\"INC-42 outage of the API\"}}");
      assertThat(got).isEqualTo("""
              {"jsonrpc":"2.0","id":2,"result":{"description":"Reviews an incident.","messages":[\
              {"role":"user","content":{"type":"resource","resource":{"uri":\
              "skill://ops/incident-review/SKILL.md","mimeType":"text/markdown","text":\
              "---\\nname: incident-review\\ndescription: Reviews an incident.\\nargument-hint: \
              the incident's ticket\\n---\\n# Steps\\nRead the checklist.\\n"}}},\
              {"role":"user","content":{"type":"resource_link","uri":\
              "skill://ops/incident-review/assets/logo.png","name":"assets/logo.png",\
              "mimeType":"image/png","size":4}},\
              {"role":"user","content":{"type":"resource","resource":{"uri":\
              "skill://ops/incident-review/references/checklist.md","mimeType":"text/markdown",\
              "text":"1. Timeline\\n"}}},\
              {"role":"user","content":{"type":"text","text":\
              "Use the skill 'incident-review' above for this task:\\n\\nINC-42 outage of the API"}}\
              ]}}""");
      assertThat(mcp.call("prompts/get", "{\"name\":\"deploy\"}"))
          .contains("\"text\":\"Follow the skill 'deploy' above.\"");
    }
  }

  @Test
  void theOptionTurnsSkillPromptsOffAndTheSkillsStayServed() throws Exception {
    library();
    try (Library library = open(LibraryOptions.builder().skillPrompts(false).build())) {
      assertThat(names(library)).containsExactly("clash", "summarize");
      assertThat(formatted(library)).isEmpty();
      assertThat(library.skills()).hasSize(4);
    }
  }

  @Test
  void aSkillsPromptTakesItsFoldersScopes() throws Exception {
    library();
    write(root, "ops/_folder.yaml", "scopes: [ops]\n");
    try (Library library = open(LibraryOptions.defaults())) {
      assertThat(library.catalog().get("ops-incident-review").orElseThrow().requiredScopes())
          .isEqualTo(Set.of("ops"));
      assertThat(library.catalog().get("deploy").orElseThrow().requiredScopes()).isEmpty();
    }
  }

  @Test
  void skillPromptsFollowTheFilesWhileTheLibraryWatches() throws Exception {
    library();
    try (Library library = open(LibraryOptions.defaults());
        McpHarness mcp = new McpHarness(library.catalog())) {
      library.watch();
      write(root, "new-one/SKILL.md", skill("new-one", ""));
      eventually(() -> library.catalog().get("new-one").isPresent());

      write(root, "ops/incident-review/SKILL.md", REVIEW.replace("Read the checklist.", "Page."));
      eventually(() -> mcp.call("prompts/get", "{\"name\":\"ops-incident-review\"}")
          .contains("# Steps\\nPage."));

      // The prompt file that held the name goes: the skill's prompt takes it, and the warning goes.
      Files.delete(root.resolve("clash.prompt.md"));
      eventually(() -> mcp.call("prompts/get", "{\"name\":\"clash\"}")
          .contains("Follow the skill 'clash' above."));
      assertThat(formatted(library)).isEmpty();
      // A prompt file of that name comes back: it wins again.
      write(root, "clash.prompt.md", "---\ndescription: Back.\n---\nMine again.\n");
      eventually(() -> mcp.call("prompts/get", "{\"name\":\"clash\"}").contains("Mine again."));

      write(root, "deploy-off/SKILL.md", skill("deploy-off", ""));
      eventually(() -> library.catalog().get("deploy-off").isPresent());
      write(root, "deploy-off/SKILL.md", skill("deploy-off", "user-invocable: false\n"));
      eventually(() -> library.catalog().get("deploy-off").isEmpty());

      Files.delete(root.resolve("new-one/SKILL.md"));
      eventually(() -> library.catalog().get("new-one").isEmpty());
      assertThat(names(library))
          .containsExactly("clash", "deploy", "ops-incident-review", "summarize");
    }
  }

  @Test
  void twoSkillsWhosePathsMakeOneNameOfferTheFirstAndWarnOfTheSecond() throws Exception {
    write(root, "a-b/c/SKILL.md", skill("c", ""));
    write(root, "a/b-c/SKILL.md", skill("b-c", ""));
    try (Library library = open(LibraryOptions.defaults())) {
      assertThat(names(library)).containsExactly("a-b-c");
      assertThat(library.catalog().get("a-b-c").orElseThrow().prompt().title())
          .isEqualTo("c (skill)");
      assertThat(formatted(library))
          .containsExactly(
              root + "/a/b-c/SKILL.md:1: warning: skill 'a/b-c' is not offered as a prompt:"
                  + " skill 'a-b/c' is offered as 'a-b-c'");
    }
  }
}
