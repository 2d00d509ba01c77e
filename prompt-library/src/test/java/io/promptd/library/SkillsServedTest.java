package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.library.internal.skills.SkillReader;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.testing.McpWire;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Skills} on a real {@link McpServer}: skills read from a folder and built in code,
 * registered once, are listed by {@code skills/list} with manifests whose digests and sizes are
 * those of the bytes {@code resources/read} answers, beside the author's own resources; a malformed
 * skill is refused saying which and what.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillsServedTest {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', (byte) 0xff, 0, 1};

  @TempDir
  Path root;

  /** The author's own resources: one note. */
  private static final ResourceProvider NOTES = new ResourceProvider() {
    @Override
    public List<Resource> resources() {
      return List.of(new Resource(
          "docs://notes", "notes", null, null, "text/plain", null, null, List.of(), null));
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return uri.equals("docs://notes")
          ? Optional.of(List.of(new TextResourceContents(uri, "text/plain", "N", null)))
          : Optional.empty();
    }
  };

  @Test
  void folderAndCodeSkillsServeManifestsAndFilesFromOneRegistration() throws Exception {
    write(
        root, "git/SKILL.md", "---\nname: git\ndescription: Git conventions.\n---\nUse rebase.\n");
    write(root, "git/scripts/run.sh", "echo hi\n");
    write(root, "git/assets/logo.png", PNG);
    Skills skills = Skills.builder()
        .folder(root)
        .skill(
            "ops/review",
            "---\nname: review\ndescription: Reviews a change.\nmetadata:\n  v: \"2\"\n---\nRead it.\n")
        .file("ops/review", "checklist.md", "- tests pass ✓\n")
        .file("ops/review", "assets/icon.png", PNG)
        .build();
    McpServer server = McpServer.builder().resources(NOTES).skills(skills).build();

    JsonArray entries = call(server, "skills/list", "").array("skills").orElseThrow();
    List<String> uris = new ArrayList<>();
    for (Json e : entries.elements()) {
      uris.add(((JsonObject) e).string("uri").orElseThrow());
    }
    assertThat(uris).containsExactly("skill://git/SKILL.md", "skill://ops/review/SKILL.md");
    List<String> files = new ArrayList<>();
    for (Json e : entries.elements()) {
      for (Json f : ((JsonObject) e).array("resources").orElseThrow().elements()) {
        JsonObject file = (JsonObject) f;
        String uri = file.string("uri").orElseThrow();
        files.add(uri);
        byte[] bytes = read(server, uri);
        assertThat(file.string("digest")).as(uri).contains(sha256(bytes));
        assertThat(
                ((JsonNumber) Objects.requireNonNull(file.get("size"))).value().longValue())
            .as(uri)
            .isEqualTo(bytes.length);
      }
    }
    assertThat(files)
        .containsExactly(
            "skill://git/SKILL.md",
            "skill://git/assets/logo.png",
            "skill://git/scripts/run.sh",
            "skill://ops/review/SKILL.md",
            "skill://ops/review/assets/icon.png",
            "skill://ops/review/checklist.md");
    assertThat(read(server, "skill://ops/review/assets/icon.png")).isEqualTo(PNG);
    assertThat(new String(read(server, "skill://ops/review/checklist.md"), StandardCharsets.UTF_8))
        .isEqualTo("- tests pass ✓\n");

    // resources/list: the author's note and every skill file, each once; text or blob by type.
    String listed = JsonCodec.write(call(server, "resources/list", ""));
    for (String uri : files) {
      assertThat(listed.split(Pattern.quote("\"uri\":\"" + uri + "\""), -1))
          .as(uri)
          .hasSize(2);
    }
    assertThat(listed).contains("\"uri\":\"docs://notes\"");
    assertThat(JsonCodec.write(call(server, "resources/read", "\"uri\":\"docs://notes\"")))
        .contains("\"text\":\"N\"");
    assertThat(JsonCodec.write(
            call(server, "resources/read", "\"uri\":\"skill://git/assets/logo.png\"")))
        .contains("\"blob\":")
        .contains("\"mimeType\":\"image/png\"");
    assertThat(
            JsonCodec.write(call(server, "skills/get", "\"uri\":\"skill://ops/review/SKILL.md\"")))
        .contains("\"frontmatter\":{\"name\":\"review\",\"description\":\"Reviews a change.\","
            + "\"metadata\":{\"v\":\"2\"}}");
    assertThat(JsonCodec.write(call(server, "resources/directory/read", "\"uri\":\"skill://git\"")))
        .contains("skill://git/scripts");
  }

  @Test
  void withoutResourcesOfItsOwnTheServerStillServesTheSkillFiles() throws Exception {
    Skills skills = Skills.builder()
        .skill("git", "---\nname: git\ndescription: Git.\n---\nG\n")
        .build();
    McpServer server = McpServer.builder().skills(skills).build();
    assertThat(JsonCodec.write(call(server, "server/discover", "")))
        .contains("\"resources\":{\"subscribe\":true,\"listChanged\":true}");
    assertThat(new String(read(server, "skill://git/SKILL.md"), StandardCharsets.UTF_8))
        .isEqualTo("---\nname: git\ndescription: Git.\n---\nG\n");
  }

  @Test
  void aSkillFolderIsOneSkillAtItsName() throws Exception {
    write(root, "review/SKILL.md", "---\nname: review\ndescription: R.\n---\nR\n");
    write(root, "review/deep/SKILL.md", "---\nname: deep\ndescription: D.\n---\nD\n");
    Skills skills = Skills.fromFolder(root.resolve("review"));
    assertThat(skills.skills())
        .extracting(Skill::uri)
        .containsExactly("skill://review/SKILL.md", "skill://review/deep/SKILL.md");
  }

  @Test
  void aMalformedSkillIsRefusedSayingWhichAndWhat() {
    assertThatThrownBy(() -> Skills.builder()
            .skill("ops/review", "---\nname: Review\n---\nBody\n")
            .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("skill 'ops/review' is refused")
        .hasMessageContaining("ops/review/SKILL.md:2: error: skill name 'Review' may hold only")
        .hasMessageContaining("SKILL.md front matter needs 'description'");
    assertThatThrownBy(() -> Skills.builder()
            .skill("ops/review", "---\nname: reviews\ndescription: R.\n---\n")
            .build())
        .hasMessageContaining("skill name 'reviews' must equal its folder's name 'review'");
    assertThatThrownBy(() -> Skills.builder()
            .skill("git", "---\nname: git\ndescription: " + "d".repeat(1025) + "\n---\n")
            .build())
        .hasMessageContaining("skill 'git' is refused")
        .hasMessageContaining("'description' must be a string of 1 to 1024 characters");
    assertThatThrownBy(() -> Skills.builder().skill("git", "no front matter").build())
        .hasMessageContaining("SKILL.md must begin with YAML front matter");
    assertThatThrownBy(() -> Skills.builder().skill("ops/../git", "x"))
        .hasMessageContaining(
            "skill path 'ops/../git' must not hold an empty, '.' or '..' segment");
    assertThatThrownBy(() -> Skills.builder().file("git", "deep/SKILL.md", "x"))
        .hasMessageContaining("would be a nested skill: add it as skill 'git/deep'");
    assertThatThrownBy(() -> Skills.builder().file("git", "notes.md", "n").build())
        .hasMessageContaining("files were given for skill 'git', which has no SKILL.md");
    Skills.Builder many = Skills.builder().skill("big", "---\nname: big\ndescription: B.\n---\n");
    for (int i = 0; i < SkillReader.MAX_FILES; i++) {
      many.file("big", "f" + i + ".txt", "");
    }
    assertThatThrownBy(many::build)
        .hasMessageContaining("skill 'big' holds 513 files, over the limit of 512");
  }

  @Test
  void aMalformedSkillInAFolderIsRefusedAtItsFileAndLine() {
    write(root, "good/SKILL.md", "---\nname: good\ndescription: G.\n---\n");
    write(root, "bad/SKILL.md", "---\nname: bad\ndescription: B.\nlicense: [1]\n---\n");
    assertThatThrownBy(() -> Skills.fromFolder(root))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("skill 'bad' is refused")
        .hasMessageContaining(
            root.resolve("bad/SKILL.md") + ":4: error: 'license' must be a string")
        .hasMessageNotContaining("'good'");
    assertThatThrownBy(() -> Skills.fromFolder(root.resolve("good").resolve("none")))
        .hasMessageContaining("is not a folder");
  }

  @Test
  void aLibraryStillServesItsOwnSkillFilesOnce() throws Exception {
    write(root, "git/SKILL.md", "---\nname: git\ndescription: Git.\n---\nG\n");
    try (Library library = load(root)) {
      assertThat(library.skillProvider().files()).isNull();
      McpServer server =
          McpServer.builder().resources(library).skills(library.skillProvider()).build();
      String listed = JsonCodec.write(call(server, "resources/list", ""));
      assertThat(listed.split("skill://git/SKILL.md", -1)).hasSize(2);
    }
  }

  /** A 2026-07-28 request's result, from an unrestricted caller. */
  static JsonObject call(McpServer server, String method, String members) {
    ServerSession session = server.openSession(Outbound.discard());
    var response = session
        .receive(
            MessageCodec.decode(McpWire.modern(7, method, members, "test")), Caller.UNRESTRICTED)
        .run(Outbound.discard())
        .response();
    JsonObject answer =
        (JsonObject) JsonCodec.parse(MessageCodec.encode(Objects.requireNonNull(response)));
    return answer.object("result").orElseThrow(() -> new AssertionError(answer.toString()));
  }

  /**
   * The bytes {@code resources/read} answers for {@code uri}: its text as UTF-8, or its blob
   * decoded.
   */
  static byte[] read(McpServer server, String uri) {
    JsonObject contents = (JsonObject) call(server, "resources/read", "\"uri\":\"" + uri + "\"")
        .array("contents")
        .orElseThrow()
        .elements()
        .getFirst();
    return contents
        .string("text")
        .map(t -> t.getBytes(StandardCharsets.UTF_8))
        .orElseGet(() -> Base64.getDecoder().decode(contents.string("blob").orElseThrow()));
  }

  static String sha256(byte[] bytes) throws Exception {
    return "sha256:"
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
