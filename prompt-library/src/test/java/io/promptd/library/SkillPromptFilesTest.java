package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.SkillsTest.skill;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A skill's prompt carries its files: its supporting text files embedded (text told by the bytes:
 * UTF-8 without a NUL) in the skill's file order while a budget lasts, every other file a link
 * stating its type and size, and nothing from outside the skill's folder.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillPromptFilesTest {
  private static final String SCRIPT =
      "#!/bin/sh\n# Collects the logs.\njournalctl -u api > logs\n";

  @TempDir
  Path root;

  private Library open(LibraryOptions.Builder options) throws IOException {
    return Library.open(
        LibrarySource.folders(List.of(root)), options.cacheDirectory(null).build());
  }

  /** The skill prompt's messages after SKILL.md and before the task, as JSON, one per entry. */
  private static List<String> files(McpHarness mcp, String name) {
    JsonObject response =
        (JsonObject) JsonCodec.parse(mcp.call("prompts/get", "{\"name\":\"" + name + "\"}"));
    var messages = response.object("result").orElseThrow().array("messages").orElseThrow();
    List<String> all = messages.elements().stream()
        .map(m -> JsonCodec.write(((JsonObject) m).object("content").orElseThrow()))
        .toList();
    assertThat(all.getFirst()).contains("\"uri\":\"skill://");
    assertThat(all.getLast()).startsWith("{\"type\":\"text\"");
    return all.subList(1, all.size() - 1);
  }

  @Test
  void aScriptIsEmbeddedWithItsTextAndTypeAndABinaryFileIsLinked() throws Exception {
    write(root, "ops/collect/SKILL.md", skill("collect", ""));
    write(root, "ops/collect/scripts/collect.sh", SCRIPT);
    write(root, "ops/collect/assets/data.bin", new byte[] {'a', 0, 'b'});
    // No known extension, but text: embedded as text/plain.
    write(root, "ops/collect/scripts/Makefile", "all:\n\t./collect.sh\n");
    // A text type by its name, but not UTF-8: linked, with the type its name suggests.
    write(root, "ops/collect/references/latin1.md", new byte[] {'c', 'a', 'f', (byte) 0xe9});
    try (Library library = open(LibraryOptions.builder());
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(files(mcp, "ops-collect"))
          .containsExactly(
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/assets/data.bin\","
                  + "\"name\":\"assets/data.bin\",\"mimeType\":\"application/octet-stream\","
                  + "\"size\":3}",
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/references/latin1.md\","
                  + "\"name\":\"references/latin1.md\",\"mimeType\":\"text/markdown\",\"size\":4}",
              "{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://ops/collect/scripts/Makefile\","
                  + "\"mimeType\":\"text/plain\",\"text\":\"all:\\n\\t./collect.sh\\n\"}}",
              "{\"type\":\"resource\",\"resource\":{\"uri\":"
                  + "\"skill://ops/collect/scripts/collect.sh\",\"mimeType\":\"text/x-shellscript\","
                  + "\"text\":\"#!/bin/sh\\n# Collects the logs.\\njournalctl -u api > logs\\n\"}}");
    }
  }

  @Test
  void aHiddenFileIsLinkedNeverEmbedded() throws Exception {
    write(root, "ops/deploy/SKILL.md", skill("deploy", ""));
    write(root, "ops/deploy/.env", "TOKEN=secret\n");
    write(root, "ops/deploy/scripts/.netrc", "machine x password y\n");
    write(root, "ops/deploy/scripts/run.sh", "#!/bin/sh\n");
    try (Library library = open(LibraryOptions.builder());
        McpHarness mcp = new McpHarness(library.catalog())) {
      List<String> files = files(mcp, "ops-deploy");
      assertThat(String.join("\n", files)).doesNotContain("secret", "password");
      assertThat(files)
          .anySatisfy(f -> assertThat(f)
              .startsWith("{\"type\":\"resource_link\"")
              .contains("skill://ops/deploy/.env"))
          .anySatisfy(f -> assertThat(f).contains("\"text\":\"#!/bin/sh\\n\""));
    }
  }

  @Test
  void filesPastTheBudgetAreLinkedWithTheirSizeAndTheOrderIsTheSkills() throws Exception {
    write(root, "notes/SKILL.md", skill("notes", ""));
    write(root, "notes/a.txt", "0123456789"); // 10 bytes: fits
    write(root, "notes/b.txt", "0123456789abcde"); // 15: past what is left (10)
    write(root, "notes/c.txt", "01234"); // 5: still fits
    write(root, "notes/d.txt", "012345"); // 6: past what is left (5)
    try (Library library = open(LibraryOptions.builder().skillFilesBudget(20));
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(files(mcp, "notes"))
          .containsExactly(
              "{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://notes/a.txt\","
                  + "\"mimeType\":\"text/plain\",\"text\":\"0123456789\"}}",
              "{\"type\":\"resource_link\",\"uri\":\"skill://notes/b.txt\",\"name\":\"b.txt\","
                  + "\"mimeType\":\"text/plain\",\"size\":15}",
              "{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://notes/c.txt\","
                  + "\"mimeType\":\"text/plain\",\"text\":\"01234\"}}",
              "{\"type\":\"resource_link\",\"uri\":\"skill://notes/d.txt\",\"name\":\"d.txt\","
                  + "\"mimeType\":\"text/plain\",\"size\":6}");
    }
  }

  @Test
  void theDefaultBudgetIs64KibInAll() throws Exception {
    assertThat(LibraryOptions.defaults().skillFilesBudget()).isEqualTo(64 * 1024);
    write(root, "big/SKILL.md", skill("big", ""));
    write(root, "big/a.txt", "a".repeat(40 * 1024));
    write(root, "big/b.txt", "b".repeat(30 * 1024)); // 70 KiB with a.txt: linked
    write(root, "big/c.txt", "c".repeat(24 * 1024)); // 64 KiB with a.txt: embedded
    try (Library library = open(LibraryOptions.builder());
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(files(mcp, "big"))
          .extracting(f -> f.substring(0, f.indexOf(',')))
          .containsExactly(
              "{\"type\":\"resource\"", "{\"type\":\"resource_link\"", "{\"type\":\"resource\"");
    }
  }

  @Test
  void aBudgetOfZeroLinksEveryFile() throws Exception {
    write(root, "ops/collect/SKILL.md", skill("collect", ""));
    write(root, "ops/collect/empty.txt", "");
    write(root, "ops/collect/scripts/collect.sh", SCRIPT);
    try (Library library = open(LibraryOptions.builder().skillFilesBudget(0));
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(files(mcp, "ops-collect"))
          .containsExactly(
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/empty.txt\","
                  + "\"name\":\"empty.txt\",\"mimeType\":\"text/plain\",\"size\":0}",
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/scripts/collect.sh\","
                  + "\"name\":\"scripts/collect.sh\",\"mimeType\":\"text/x-shellscript\","
                  + "\"size\":" + SCRIPT.length() + "}");
    }
    assertThatThrownBy(() -> LibraryOptions.builder().skillFilesBudget(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LibraryOptions: skillFilesBudget must not be negative, not -1");
  }

  @Test
  void aLinkToAFileOutsideTheSkillsFolderIsNeverEmbedded() throws Exception {
    write(root, "private.md", "the root's own secret\n");
    write(root, "ops/collect/SKILL.md", skill("collect", ""));
    Files.createSymbolicLink(root.resolve("ops/collect/notes.md"), root.resolve("private.md"));
    write(root, "ops/collect/scripts/collect.sh", SCRIPT);
    try (Library library = open(LibraryOptions.builder());
        McpHarness mcp = new McpHarness(library.catalog())) {
      // A file that turns into such a link after the skill was read is linked too.
      Path script = root.resolve("ops/collect/scripts/collect.sh");
      Files.delete(script);
      Files.createSymbolicLink(script, root.resolve("private.md"));
      List<String> files = files(mcp, "ops-collect");
      assertThat(files)
          .containsExactly(
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/notes.md\","
                  + "\"name\":\"notes.md\",\"mimeType\":\"text/markdown\",\"size\":22}",
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/collect/scripts/collect.sh\","
                  + "\"name\":\"scripts/collect.sh\",\"mimeType\":\"text/x-shellscript\","
                  + "\"size\":" + SCRIPT.length() + "}");
      assertThat(String.join("", files)).doesNotContain("secret");
    }
  }

  @Test
  void aNestedSkillsFilesAreNotItsParentsAndAFileThatGrewPastTheBudgetIsLinked() throws Exception {
    write(root, "ops/SKILL.md", skill("ops", ""));
    write(root, "ops/guide.md", "short\n");
    write(root, "ops/deep/SKILL.md", skill("deep", ""));
    write(root, "ops/deep/notes.txt", "nested\n");
    try (Library library = open(LibraryOptions.builder().skillFilesBudget(10));
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(files(mcp, "ops"))
          .containsExactly("{\"type\":\"resource\",\"resource\":{\"uri\":\"skill://ops/guide.md\","
              + "\"mimeType\":\"text/markdown\",\"text\":\"short\\n\"}}");
      // Edited while nothing watches: the bytes read now are over the budget.
      write(root, "ops/guide.md", "much longer now\n");
      assertThat(files(mcp, "ops"))
          .containsExactly(
              "{\"type\":\"resource_link\",\"uri\":\"skill://ops/guide.md\",\"name\":\"guide.md\","
                  + "\"mimeType\":\"text/markdown\",\"size\":6}");
    }
  }
}
