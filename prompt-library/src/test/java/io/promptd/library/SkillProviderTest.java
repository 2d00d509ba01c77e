package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.spi.Caller;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's skills as Skills extension entries: URIs, front matter as JSON, complete manifests,
 * scopes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillProviderTest {
  @TempDir
  Path root;

  @Test
  void entriesCarryTheFrontMatterAndAManifestOfEveryFileNestedSkillsIncluded() throws Exception {
    write(
        root,
        "ops/review/SKILL.md",
        "---\nname: review\ndescription: Reviews.\nlicense: MIT\nmetadata:\n  version: \"1.0\"\n"
            + "weight: 3\nbeta: true\nnothing:\n---\nBody\n");
    write(root, "ops/review/references/guide.md", "guide\n");
    write(root, "ops/review/assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G', 0});
    write(root, "ops/review/deep/SKILL.md", "---\nname: deep\ndescription: Deeper.\n---\nD\n");
    write(root, "ops/review/deep/notes.txt", "n\n");
    write(root, "hello.prompt.md", "---\nname: hello\n---\nHi\n");
    try (Library library = load(root)) {
      SkillProvider provider = library.skillProvider();
      List<Skill> skills = provider.skills();
      assertThat(skills)
          .extracting(Skill::uri)
          .containsExactly("skill://ops/review/SKILL.md", "skill://ops/review/deep/SKILL.md");
      Skill review = skills.getFirst();
      assertThat(JsonCodec.write(review.frontmatter()))
          .isEqualTo("{\"name\":\"review\",\"description\":\"Reviews.\",\"license\":\"MIT\","
              + "\"metadata\":{\"version\":\"1.0\"},\"weight\":3,\"beta\":true,\"nothing\":null}");
      assertThat(review.resources())
          .extracting(SkillResource::uri)
          .containsExactly(
              "skill://ops/review/SKILL.md",
              "skill://ops/review/assets/logo.png",
              "skill://ops/review/references/guide.md",
              "skill://ops/review/deep/SKILL.md",
              "skill://ops/review/deep/notes.txt");
      for (Skill skill : skills) {
        for (SkillResource r : Objects.requireNonNull(skill.resources())) {
          byte[] bytes = Files.readAllBytes(root.resolve(r.uri().substring("skill://".length())));
          assertThat(r.size()).as(r.uri()).isEqualTo(bytes.length);
          assertThat(r.digest())
              .as(r.uri())
              .isEqualTo("sha256:"
                  + HexFormat.of()
                      .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        }
      }
      assertThat(provider.skills()).isSameAs(skills);
      assertThat(provider.directoryRead()).isTrue();
      assertThat(provider.children("skill://ops/review", Caller.UNRESTRICTED).orElseThrow())
          .extracting(Resource::uri, Resource::mimeType)
          .containsExactly(
              Tuple.tuple("skill://ops/review/SKILL.md", "text/markdown"),
              Tuple.tuple("skill://ops/review/assets", "inode/directory"),
              Tuple.tuple("skill://ops/review/deep", "inode/directory"),
              Tuple.tuple("skill://ops/review/references", "inode/directory"));
      assertThat(
              provider.children("skill://ops/review/deep", Caller.UNRESTRICTED).orElseThrow())
          .extracting(Resource::uri)
          .containsExactly("skill://ops/review/deep/SKILL.md", "skill://ops/review/deep/notes.txt");
      assertThat(provider.children("skill://ops", Caller.UNRESTRICTED)).isEmpty();
      assertThat(provider.children("skill://ops/review/SKILL.md", Caller.UNRESTRICTED))
          .isEmpty();
      assertThat(provider.children("skill://ops/review/", Caller.UNRESTRICTED)).isEmpty();
    }
  }

  @Test
  void everyFileIsAResourceWhoseBytesMatchItsManifestEntry() throws Exception {
    write(root, "git/SKILL.md", "---\nname: git\ndescription: Git.\n---\nG\n");
    write(root, "git/scripts/run.sh", "echo hi\n");
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', (byte) 0xff, 0};
    write(root, "git/assets/logo.png", png);
    write(root, "notes.resource.md", "---\nuri: docs://notes\ndescription: n\n---\nN\n");
    try (Library library = load(root)) {
      assertThat(library.resources())
          .extracting(Resource::uri)
          .contains(
              "skill://git/SKILL.md", "skill://git/assets/logo.png", "skill://git/scripts/run.sh");
      Resource main = library.resources().stream()
          .filter(r -> r.uri().equals("skill://git/SKILL.md"))
          .findFirst()
          .orElseThrow();
      assertThat(main.name()).isEqualTo("git");
      assertThat(main.description()).isEqualTo("Git.");
      assertThat(main.mimeType()).isEqualTo("text/markdown");
      Skill git = library.skillProvider().skills().getFirst();
      for (SkillResource r : Objects.requireNonNull(git.resources())) {
        ResourceContents c = library.read(r.uri()).orElseThrow().getFirst();
        byte[] bytes = switch (c) {
          case TextResourceContents t -> t.text().getBytes(StandardCharsets.UTF_8);
          case BlobResourceContents b -> Base64.getDecoder().decode(b.blob());
        };
        assertThat(bytes.length).as(r.uri()).isEqualTo(r.size());
        assertThat(sha256(bytes)).as(r.uri()).isEqualTo(r.digest());
      }
      assertThat(library.read("skill://git/assets/logo.png").orElseThrow().getFirst())
          .isInstanceOf(BlobResourceContents.class);
      assertThat(library.read("skill://git/scripts/run.sh").orElseThrow().getFirst())
          .isInstanceOf(TextResourceContents.class);
      assertThat(library.read("skill://git/none.md")).isEmpty();
    }
  }

  @Test
  void editingASkillChangesTheResourceListForWhoMaySeeItAndUpdatesTheFile() throws Exception {
    write(root, "ops/_folder.yaml", "scopes: [ops]\n");
    write(root, "ops/review/SKILL.md", "---\nname: review\ndescription: R.\n---\nOne\n");
    try (Library library = load(root)) {
      BlockingQueue<String> heard = new LinkedBlockingQueue<>();
      library.onChange(new ResourceProvider.Listener() {
        @Override
        public void listChanged() {
          heard.add("list");
        }

        @Override
        public void listChanged(Set<Set<String>> scopes) {
          heard.add("list " + scopes);
        }

        @Override
        public void updated(String uri) {
          heard.add("updated " + uri);
        }
      });
      library.watch();
      write(root, "ops/review/SKILL.md", "---\nname: review\ndescription: R.\n---\nTwo\n");
      assertThat(heard.poll(30, TimeUnit.SECONDS)).isEqualTo("list [[ops]]");
      assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("updated skill://ops/review/SKILL.md");
      String text = ((TextResourceContents)
              library.read("skill://ops/review/SKILL.md").orElseThrow().getFirst())
          .text();
      assertThat(text).endsWith("Two\n");
    }
  }

  @Test
  void aFileChangedBehindTheEntryIsReadAsItIsAndTheSkillIsReadAgainWithoutAWatcher()
      throws Exception {
    write(root, "git/SKILL.md", "---\nname: git\ndescription: Git.\n---\nG\n");
    write(root, "git/notes.md", "one\n");
    try (Library library = load(root)) { // not watching: nothing else would see the edit
      List<String> heard = new CopyOnWriteArrayList<>();
      library.onChange(new ResourceProvider.Listener() {
        @Override
        public void listChanged() {
          heard.add("list");
        }

        @Override
        public void updated(String uri) {
          heard.add("updated " + uri);
        }
      });
      write(root, "git/notes.md", "one and two\n");
      ResourceContents now = library.read("skill://git/notes.md").orElseThrow().getFirst();
      assertThat(((TextResourceContents) now).text()).isEqualTo("one and two\n");
      // The entry a client refreshes with skills/get now describes those bytes, and it was told.
      SkillResource notes = library.skillProvider().skills().getFirst().resources().stream()
          .filter(r -> r.uri().equals("skill://git/notes.md"))
          .findFirst()
          .orElseThrow();
      assertThat(notes.size()).isEqualTo(12);
      assertThat(notes.digest())
          .isEqualTo(sha256("one and two\n".getBytes(StandardCharsets.UTF_8)));
      assertThat(heard).containsExactly("list", "updated skill://git/notes.md");
      // A read that matches its entry reads nothing again.
      library.read("skill://git/notes.md");
      assertThat(heard).hasSize(2);
    }
  }

  @Test
  void urisArePercentEncodedSoAnyFolderOrFileNameMakesAValidUri() throws Exception {
    write(root, "Équipe ops/review/SKILL.md", "---\nname: review\ndescription: R.\n---\nR\n");
    write(root, "Équipe ops/review/roll back.md", "r\n");
    try (Library library = load(root)) {
      Skill review = library.skillProvider().skills().getFirst();
      assertThat(review.uri()).isEqualTo("skill://%C3%89quipe%20ops/review/SKILL.md");
      assertThat(review.resources())
          .extracting(SkillResource::uri)
          .containsExactly(
              "skill://%C3%89quipe%20ops/review/SKILL.md",
              "skill://%C3%89quipe%20ops/review/roll%20back.md");
      for (SkillResource r : review.resources()) {
        assertThat(URI.create(r.uri()).getScheme()).isEqualTo("skill");
        assertThat(library.read(r.uri())).as(r.uri()).isPresent();
      }
      assertThat(library
              .skillProvider()
              .children("skill://%C3%89quipe%20ops/review", Caller.UNRESTRICTED)
              .orElseThrow())
          .extracting(Resource::uri)
          .containsExactly(
              "skill://%C3%89quipe%20ops/review/SKILL.md",
              "skill://%C3%89quipe%20ops/review/roll%20back.md");
    }
  }

  private static String sha256(byte[] bytes) throws Exception {
    return "sha256:"
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void aSkillIsVisibleToCallersHoldingItsFolderScopes() {
    write(root, "admin/_folder.yaml", "scopes: [admin]\n");
    write(root, "admin/keys/SKILL.md", "---\nname: keys\ndescription: Keys.\n---\nK\n");
    write(root, "open/SKILL.md", "---\nname: open\ndescription: Open.\n---\nO\n");
    try (Library library = load(root)) {
      SkillProvider provider = library.skillProvider();
      Caller team = Caller.authenticated("t", Set.of("team"));
      Caller admin = Caller.authenticated("a", Set.of("admin"));
      assertThat(provider.visible(team, "skill://admin/keys/SKILL.md")).isFalse();
      assertThat(provider.visible(admin, "skill://admin/keys/SKILL.md")).isTrue();
      assertThat(provider.visible(team, "skill://open/SKILL.md")).isTrue();
      assertThat(provider.visible(admin, "skill://none/SKILL.md")).isFalse();
      assertThat(library.visible(team, "skill://admin/keys/SKILL.md")).isFalse();
      assertThat(library.read("skill://admin/keys/SKILL.md", team)).isEmpty();
      assertThat(library.read("skill://admin/keys/SKILL.md", admin)).isPresent();
      assertThat(library.visible(team, "skill://open/SKILL.md")).isTrue();
      assertThat(provider.children("skill://admin/keys", team)).isEmpty();
      assertThat(provider.children("skill://admin/keys", admin)).isPresent();
    }
  }
}
