package io.promptd.library;

import static io.promptd.library.Files2.formatted;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.skills.SkillFile;
import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skills in the library: a folder holding a {@code SKILL.md} is a skill, read with its front matter
 * verbatim and a manifest of every file; its problems are diagnostics at their line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillsTest {
  @TempDir
  Path root;

  static String skill(String name, String extra) {
    return "---\nname: " + name + "\ndescription: Reviews an incident.\n" + extra
        + "---\n# Steps\nDo it.\n";
  }

  @Test
  void aSkillIsReadWithItsFrontMatterBodyAndManifest() throws Exception {
    String md = "---\nname: incident-review\ndescription: Reviews an incident.\nlicense: MIT\n"
        + "metadata:\n  author: ops\n  version: \"1.0\"\nweight: 3\nbeta: true\n---\n# Steps\nDo it.\n";
    write(root, "ops/incident-review/SKILL.md", md);
    write(root, "ops/incident-review/references/guide.md", "guide\n");
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};
    write(root, "ops/incident-review/assets/logo.png", png);
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      List<SkillFolder> skills = library.skills();
      assertThat(skills).hasSize(1);
      SkillFolder s = skills.getFirst();
      assertThat(s.path()).isEqualTo("ops/incident-review");
      assertThat(s.name()).isEqualTo("incident-review");
      assertThat(s.description()).isEqualTo("Reviews an incident.");
      assertThat(s.frontMatterText())
          .isEqualTo("name: incident-review\ndescription: Reviews an incident.\nlicense: MIT\n"
              + "metadata:\n  author: ops\n  version: \"1.0\"\nweight: 3\nbeta: true\n");
      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("name", "incident-review");
      expected.put("description", "Reviews an incident.");
      expected.put("license", "MIT");
      expected.put("metadata", Map.of("author", "ops", "version", "1.0"));
      expected.put("weight", 3L);
      expected.put("beta", true);
      assertThat(s.frontMatter()).containsExactlyEntriesOf(expected);
      assertThat(s.body()).isEqualTo("# Steps\nDo it.\n");
      assertThat(s.files())
          .extracting(SkillFile::path, SkillFile::size, SkillFile::mimeType)
          .containsExactly(
              Tuple.tuple(
                  "SKILL.md", (long) md.getBytes(StandardCharsets.UTF_8).length, "text/markdown"),
              Tuple.tuple("assets/logo.png", 7L, "image/png"),
              Tuple.tuple("references/guide.md", 6L, "text/markdown"));
      for (SkillFile f : s.files()) {
        byte[] bytes = Files.readAllBytes(root.resolve("ops/incident-review").resolve(f.path()));
        assertThat(f.digest()).isEqualTo("sha256:" + sha256(bytes));
      }
    }
  }

  @Test
  void aNestedSkillIsItsOwnSkillAndNotInItsParentsManifest() {
    write(root, "outer/SKILL.md", skill("outer", ""));
    write(root, "outer/notes.txt", "n");
    write(root, "outer/inner/SKILL.md", skill("inner", ""));
    write(root, "outer/inner/data.json", "{}");
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      assertThat(library.skills())
          .extracting(SkillFolder::path)
          .containsExactly("outer", "outer/inner");
      assertThat(library.skills().get(0).files())
          .extracting(SkillFile::path)
          .containsExactly("SKILL.md", "notes.txt");
      assertThat(library.skills().get(1).files())
          .extracting(SkillFile::path)
          .containsExactly("SKILL.md", "data.json");
    }
  }

  @Test
  void everyProblemIsADiagnosticAtItsLineAndTheSkillIsNotServed() {
    write(root, "none/SKILL.md", "# no front matter\n");
    write(root, "unclosed/SKILL.md", "---\nname: unclosed\n");
    write(root, "Bad_Name/SKILL.md", skill("Bad_Name", ""));
    write(root, "-x/SKILL.md", skill("-x", ""));
    write(root, "a--b/SKILL.md", skill("a--b", ""));
    write(root, "other/SKILL.md", skill("not-other", ""));
    write(root, "nodesc/SKILL.md", "---\nname: nodesc\n---\nbody\n");
    write(root, "empty/SKILL.md", "---\nname: empty\ndescription: ''\n---\nbody\n");
    write(root, "long/SKILL.md", "---\nname: long\ndescription: " + "d".repeat(1025) + "\n---\n");
    write(root, "meta/SKILL.md", skill("meta", "metadata:\n  n: [1, 2]\n"));
    write(root, "metalist/SKILL.md", skill("metalist", "metadata: [a]\n"));
    write(root, "compat/SKILL.md", skill("compat", "compatibility: " + "c".repeat(501) + "\n"));
    write(root, "noname/SKILL.md", "---\ndescription: d\n---\n");
    write(root, "toolong/SKILL.md", skill("a".repeat(65), ""));
    write(root, "good/SKILL.md", skill("good", ""));
    try (Library library = load(root)) {
      assertThat(library.skills()).extracting(SkillFolder::path).containsExactly("good");
      assertThat(formatted(library))
          .containsExactly(
              root.resolve("-x/SKILL.md") + ":2: error: skill name '-x' must not start or end with"
                  + " '-'",
              root.resolve("Bad_Name/SKILL.md") + ":2: error: skill name 'Bad_Name' may hold only"
                  + " letters and digits of any script, lower-case where the script has case, and"
                  + " '-', e.g. 'bad-name'",
              root.resolve("a--b/SKILL.md") + ":2: error: skill name 'a--b' must not hold '--'",
              root.resolve("compat/SKILL.md") + ":4: error: 'compatibility' must be a string of"
                  + " at most 500 characters",
              root.resolve("empty/SKILL.md") + ":3: error: 'description' must be a string of 1 to"
                  + " 1024 characters",
              root.resolve("long/SKILL.md") + ":3: error: 'description' must be a string of 1 to"
                  + " 1024 characters",
              root.resolve("meta/SKILL.md") + ":5: error: 'metadata' values must be strings:"
                  + " 'n' is not",
              root.resolve("metalist/SKILL.md") + ":4: error: 'metadata' must be a map of strings"
                  + " to strings",
              root.resolve("nodesc/SKILL.md") + ":1: error: SKILL.md front matter needs"
                  + " 'description'",
              root.resolve("noname/SKILL.md") + ":1: error: SKILL.md front matter needs 'name'",
              root.resolve("none/SKILL.md") + ":1: error: SKILL.md must begin with YAML front"
                  + " matter (a '---' line)",
              root.resolve("other/SKILL.md") + ":2: error: skill name 'not-other' must equal its"
                  + " folder's name 'other'",
              root.resolve("toolong/SKILL.md") + ":2: error: skill name '" + "a".repeat(65)
                  + "' must be 1 to 64 characters",
              root.resolve("unclosed/SKILL.md") + ":1: error: front matter starts with '---' but"
                  + " has no closing '---' line");
    }
  }

  @Test
  void limitsOnFilesAndBytesAreErrors() {
    write(root, "many/SKILL.md", skill("many", ""));
    for (int i = 0; i < 512; i++) {
      write(root, "many/f/" + i + ".txt", "x");
    }
    write(root, "big/SKILL.md", skill("big", ""));
    write(root, "big/blob.bin", new byte[16 * 1024 * 1024]);
    try (Library library = load(root)) {
      assertThat(library.skills()).isEmpty();
      assertThat(formatted(library))
          .containsExactly(
              root.resolve("big/SKILL.md") + ":1: error: skill 'big' holds more than 16777216"
                  + " bytes, the limit",
              root.resolve("many/SKILL.md") + ":1: error: skill 'many' holds 513 files, over the"
                  + " limit of 512");
    }
  }

  @Test
  void folderScopesAreCarriedOnTheSkill() {
    write(root, "_folder.yaml", "scopes: [team]\n");
    write(root, "admin/_folder.yaml", "scopes: [admin]\n");
    write(root, "open/SKILL.md", skill("open", ""));
    write(root, "admin/locked/SKILL.md", skill("locked", ""));
    try (Library library = load(root)) {
      assertThat(library.skills())
          .extracting(SkillFolder::path, SkillFolder::scopes)
          .containsExactly(
              Tuple.tuple("admin/locked", Set.of("admin")), Tuple.tuple("open", Set.of("team")));
    }
  }

  @Test
  void promptsAndSkillsSideBySideLoadBoth() {
    write(root, "review.prompt.md", "---\ndescription: d\n---\nHi\n");
    write(root, "incident-review/SKILL.md", skill("incident-review", ""));
    write(root, ".claude/skills/deploy/SKILL.md", skill("deploy", ""));
    write(root, ".claude/commands/fix.md", "Fix it\n");
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("deploy", "fix", "incident-review", "review");
      assertThat(library.skills())
          .extracting(SkillFolder::path)
          .containsExactly("deploy", "incident-review");
    }
  }

  @Test
  void twoSkillsAtOnePathServeTheFirstAndReportTheOther() {
    write(root, "deploy/SKILL.md", skill("deploy", ""));
    write(root, ".claude/skills/deploy/SKILL.md", skill("deploy", ""));
    try (Library library = load(root)) {
      assertThat(library.skills())
          .extracting(SkillFolder::file)
          .containsExactly(root.resolve(".claude/skills/deploy/SKILL.md"));
      assertThat(formatted(library))
          .containsExactly(root.resolve("deploy/SKILL.md") + ":1: error: skill path 'deploy' is"
              + " already served by " + root.resolve(".claude/skills/deploy/SKILL.md"));
    }
  }

  @Test
  void aFileThatCannotBeReadIsAnErrorAtThatFile(@TempDir Path outside) throws Exception {
    write(root, "linked/SKILL.md", skill("linked", ""));
    Path secret = write(outside, "secret.txt", "s");
    Files.createSymbolicLink(root.resolve("linked/secret.txt"), secret);
    try (Library library = load(root)) {
      assertThat(library.skills()).isEmpty();
      assertThat(formatted(library))
          .singleElement()
          .asString()
          .startsWith(root.resolve("linked/secret.txt") + ":1: error: ");
    }
  }

  @Test
  void aSnapshotServesSkillsAndItsReplacementsUpdateThem() throws Exception {
    byte[] md = skill("review", "").getBytes(StandardCharsets.UTF_8);
    LibrarySource.Snapshot snapshot = LibrarySource.snapshot(
        new LibraryFiles(1, Map.of("ops/review/SKILL.md", md, "ops/review/a.txt", new byte[] {1})));
    try (Library library = Library.open(snapshot, LibraryOptions.defaults())) {
      assertThat(library.skills())
          .singleElement()
          .satisfies(s -> assertThat(s.files())
              .extracting(SkillFile::path, SkillFile::size)
              .containsExactly(
                  Tuple.tuple("SKILL.md", (long) md.length), Tuple.tuple("a.txt", 1L)));
      snapshot.replace(new LibraryFiles(
          2,
          Map.of(
              "ops/review/SKILL.md",
              md,
              "ops/review/a.txt",
              new byte[] {1, 2},
              "solo/SKILL.md",
              skill("solo", "").getBytes(StandardCharsets.UTF_8))));
      assertThat(library.skills())
          .extracting(SkillFolder::path)
          .containsExactly("ops/review", "solo");
      assertThat(library.skills().getFirst().files().get(1).digest())
          .isEqualTo("sha256:" + sha256(new byte[] {1, 2}));
      // ops/review goes; solo turns broken, and its last good version stays served.
      snapshot.replace(new LibraryFiles(3, Map.of("solo/SKILL.md", md)));
      assertThat(library.skills())
          .extracting(SkillFolder::path, SkillFolder::name)
          .containsExactly(Tuple.tuple("solo", "solo"));
      assertThat(formatted(library))
          .singleElement()
          .asString()
          .contains("must equal its folder's name 'solo'");
    }
  }

  @Test
  void aSingleSkillMdIsCheckedAsTheSkillItIs() throws Exception {
    Path file = write(root, "ops/broken/SKILL.md", skill("other", ""));
    assertThat(Linter.check(List.of(file)))
        .extracting(Diagnostic::format)
        .containsExactly(
            file + ":2: error: skill name 'other' must equal its folder's name 'broken'");
  }

  @Test
  void aFolderWithOnlySkillsIsNotAFolderWithoutPrompts() throws Exception {
    write(root, "incident-review/SKILL.md", skill("incident-review", ""));
    assertThat(Linter.check(List.of(root))).isEmpty();
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
