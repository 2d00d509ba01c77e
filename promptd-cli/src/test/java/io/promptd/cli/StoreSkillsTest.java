package io.promptd.cli;

import static io.promptd.cli.SkillsServeTest.awaitNotification;
import static io.promptd.cli.SkillsServeTest.request;
import static io.promptd.cli.SkillsServeTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.testing.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skills through the prompt store, as a user runs it against a real PostgreSQL: {@code promptd
 * publish} carries a project's {@code .claude/skills} and a skill nested under a plain folder,
 * {@code serve --store} serves them with the digests and sizes of the files published, and a later
 * publish of a changed skill file reaches a listening client as
 * {@code notifications/resources/list_changed} and a new digest.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(120)
class StoreSkillsTest {
  @TempDir
  Path dir;

  private void write(String relative, String text) throws Exception {
    Path p = dir.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  @Test
  void publishedSkillsAreServedByAReplicaAndAChangedFileIsAnnounced() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    write("hello.prompt.md", "---\ndescription: Says hello.\n---\nHello\n");
    write(".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Ships.\n---\nRun\n");
    write("ops/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\nRead\n");
    write("ops/review/references/deep/guide.md", "guide\n");
    StoreCliTest.Result published =
        StoreCliTest.run(List.of("publish", dir.toString(), "--store", url));
    assertThat(published.status()).as(published.err()).isZero();

    try (SkillsServeTest.Stdio server =
        SkillsServeTest.Stdio.start(List.of("serve", "--stdio", "--store", url))) {
      assertThat(manifests(server))
          .isEqualTo(expected(
              ".claude/skills/deploy/SKILL.md",
              "ops/review/SKILL.md",
              "ops/review/references/deep/guide.md"));
      JsonObject read = result(server.call(
          request("resources/read", "\"uri\":\"skill://ops/review/references/deep/guide.md\"")));
      assertThat(JsonCodec.write(read.array("contents").orElseThrow()))
          .contains("\"text\":\"guide\\n\"");

      server.listenForResourceChanges();
      write("ops/review/references/deep/guide.md", "guide, second edition\n");
      StoreCliTest.Result again =
          StoreCliTest.run(List.of("publish", dir.toString(), "--store", url));
      assertThat(again.out()).contains("1 changed");
      assertThat(awaitNotification(server.out(), "notifications/resources/list_changed"))
          .as("notifications/resources/list_changed after the publish")
          .isNotNull();
      assertThat(manifests(server))
          .isEqualTo(expected(
              ".claude/skills/deploy/SKILL.md",
              "ops/review/SKILL.md",
              "ops/review/references/deep/guide.md"));
    }
  }

  /** Each file's URI with its digest and size, as skills/list gives them. */
  private static Map<String, String> manifests(SkillsServeTest.Stdio server) {
    Map<String, String> out = new TreeMap<>();
    JsonObject list = result(server.call(request("skills/list", "")));
    for (Json skill : list.array("skills").orElseThrow().elements()) {
      for (Json r : ((JsonObject) skill).array("resources").orElseThrow().elements()) {
        JsonObject entry = (JsonObject) r;
        out.put(
            entry.string("uri").orElseThrow(),
            entry.string("digest").orElseThrow() + " " + JsonCodec.write(entry.get("size")));
      }
    }
    return out;
  }

  /**
   * What {@link #manifests} should give for these files of the folder, from their bytes on disk
   * now.
   */
  private Map<String, String> expected(String... files) throws Exception {
    Map<String, String> out = new TreeMap<>();
    for (String f : files) {
      byte[] bytes = Files.readAllBytes(dir.resolve(f));
      String digest =
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      out.put(
          "skill://" + f.replaceFirst("^\\.claude/skills/", ""),
          "sha256:" + digest + " " + bytes.length);
    }
    return out;
  }
}
