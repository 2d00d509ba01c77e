package io.promptd.javasdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.library.Skills;
import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skills as resources of a server on the official MCP Java SDK ({@link SdkSkillsServer}, a real
 * process on the SDK's stdio transport) driven by promptd's client: every file of every skill is
 * listed, and reads back as text or blob with the bytes its manifest's digest and size describe; a
 * library's scoped skills are left out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SdkSkillsTest {
  @TempDir
  Path dir;

  private static void write(Path file, byte[] bytes) throws Exception {
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  private static void write(Path file, String text) throws Exception {
    write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aClientListsEverySkillFileAndReadsTheBytesItsManifestDescribes() throws Exception {
    write(
        dir.resolve("git/SKILL.md"),
        "---\nname: git\ndescription: Git conventions.\n---\nRebase.\n");
    write(dir.resolve("git/scripts/run.sh"), "echo héllo\n");
    write(dir.resolve("git/assets/logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff
    });
    List<SkillResource> manifest = new ArrayList<>();
    for (Skill s : SdkSkillsServer.skills(dir).skills()) {
      manifest.addAll(Objects.requireNonNull(s.resources()));
    }
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // Spring Boot's Logback is on this module's test class path and logs to stdout, the stdio
        // channel: no logging.
        "-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider",
        "-cp",
        System.getProperty("java.class.path"),
        SdkSkillsServer.class.getName(),
        dir.toString());
    try (McpClient client = McpClient.connectStdio(
        command, ClientOptions.defaults().withTimeout(Duration.ofSeconds(30)))) {
      assertThat(client.serverCapabilities().object("resources")).isPresent();
      List<String> listed = new ArrayList<>();
      for (Json r : client
          .call("resources/list", JsonObject.EMPTY)
          .array("resources")
          .orElseThrow()
          .elements()) {
        listed.add(((JsonObject) r).string("uri").orElseThrow());
      }
      assertThat(listed)
          .containsExactlyInAnyOrder(
              "skill://git/SKILL.md",
              "skill://git/assets/logo.png",
              "skill://git/scripts/run.sh",
              "skill://inline/hello/SKILL.md",
              "skill://inline/hello/assets/icon.png");
      assertThat(manifest)
          .extracting(SkillResource::uri)
          .containsExactlyInAnyOrderElementsOf(listed);
      for (SkillResource file : manifest) {
        JsonObject contents = (JsonObject) client
            .call("resources/read", JsonObject.builder().put("uri", file.uri()).build())
            .array("contents")
            .orElseThrow()
            .elements()
            .getFirst();
        boolean binary = file.uri().endsWith(".png");
        assertThat(contents.has(binary ? "blob" : "text")).as(file.uri()).isTrue();
        byte[] bytes = binary
            ? Base64.getDecoder().decode(contents.string("blob").orElseThrow())
            : contents.string("text").orElseThrow().getBytes(StandardCharsets.UTF_8);
        assertThat(bytes.length).as(file.uri()).isEqualTo(file.size());
        assertThat(sha256(bytes)).as(file.uri()).isEqualTo(file.digest());
      }
      assertThat(Base64.getDecoder()
              .decode(((JsonObject) client
                      .call(
                          "resources/read",
                          JsonObject.builder()
                              .put("uri", "skill://inline/hello/assets/icon.png")
                              .build())
                      .array("contents")
                      .orElseThrow()
                      .elements()
                      .getFirst())
                  .string("blob")
                  .orElseThrow()))
          .isEqualTo(SdkSkillsServer.ICON);
    }
  }

  @Test
  void aLibrarysScopedSkillsAndOtherResourcesAreLeftOutUnlessAskedFor() throws Exception {
    write(dir.resolve("admin/_folder.yaml"), "scopes: [admin]\n");
    write(dir.resolve("admin/keys/SKILL.md"), "---\nname: keys\ndescription: Keys.\n---\nK\n");
    write(dir.resolve("open/SKILL.md"), "---\nname: open\ndescription: Open.\n---\nO\n");
    write(dir.resolve("notes.resource.md"), "---\nuri: docs://notes\ndescription: n\n---\nN\n");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults())) {
      SdkSkills skills = SdkSkills.of(library);
      assertThat(skills.syncResources())
          .extracting(r -> r.resource().uri())
          .containsExactly("skill://open/SKILL.md");
      assertThatThrownBy(() -> skills.read("skill://admin/keys/SKILL.md"))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32002));
      assertThatThrownBy(() -> skills.read("docs://notes"))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32002));
      assertThat(skills.includingScoped().syncResources())
          .extracting(SyncResourceSpecification::resource)
          .extracting(r -> r.uri())
          .containsExactly("skill://admin/keys/SKILL.md", "skill://open/SKILL.md");
    }
  }

  @Test
  void skillsBuiltInCodeAreOfferedWithoutALibrary() throws Exception {
    Skills skills = Skills.builder()
        .skill("git", "---\nname: git\ndescription: Git.\n---\nG\n")
        .file("git", "notes.md", "n\n")
        .build();
    assertThat(SdkSkills.of(skills).asyncResources())
        .extracting(r -> r.resource().uri())
        .containsExactly("skill://git/SKILL.md", "skill://git/notes.md");
    assertThat(SdkSkills.of(skills).read("skill://git/notes.md").contents())
        .singleElement()
        .satisfies(c -> assertThat(c.mimeType()).isEqualTo("text/markdown"));
  }

  static String sha256(byte[] bytes) throws Exception {
    return "sha256:"
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
