package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.ResourceFormatTest.load;
import static io.promptd.library.ResourceFormatTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nothing outside the root is ever read, whatever a resource file or a prompt says. */
class ResourceSafetyTest {
  @TempDir
  Path dir;

  Path root;
  Path secret;

  @BeforeEach
  void layout() throws IOException {
    root = Files.createDirectories(dir.resolve("library"));
    secret = write(dir, "secret.txt", "TOP SECRET");
  }

  @Test
  void traversalAndAbsolutePathsAreRefusedAtLoadTime() {
    Path up =
        write(root, "up.resource.md", "---\nuri: x:up\ndescription: d\nfile: ../secret.txt\n---\n");
    Path deep = write(
        root,
        "a/deep.resource.md",
        "---\nuri: x:deep\ndescription: d\nfile: ../b/../../secret.txt\n---\n");
    Path absolute = write(
        root,
        "abs.resource.md",
        "---\nuri: x:abs\ndescription: d\nfile: " + secret.toAbsolutePath() + "\n---\n");
    Path home = write(
        root, "home.resource.md", "---\nuri: x:home\ndescription: d\nfile: ~/secret.txt\n---\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactlyInAnyOrder(
              up + ":4: error: path '../secret.txt' resolves outside the library root",
              deep + ":4: error: path '../b/../../secret.txt' resolves outside the library root",
              absolute + ":4: error: absolute path '" + secret.toAbsolutePath()
                  + "' is not allowed; use a path relative to the file",
              home
                  + ":4: error: absolute path '~/secret.txt' is not allowed; use a path relative to the file");
      assertThat(library.resources()).isEmpty();
    }
  }

  @Test
  void symbolicLinksThatLeadOutsideAreRefused() throws IOException {
    Files.createSymbolicLink(root.resolve("inside.txt"), secret);
    Path viaLink = write(
        root, "link.resource.md", "---\nuri: x:link\ndescription: d\nfile: inside.txt\n---\n");
    Path outsideResource =
        write(dir, "elsewhere.resource.md", "---\nuri: x:elsewhere\ndescription: d\n---\nhi\n");
    Files.createSymbolicLink(root.resolve("linked.resource.md"), outsideResource);
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactlyInAnyOrder(
              viaLink
                  + ":4: error: resource file 'inside.txt' is a link that leads outside the library root",
              root.resolve("linked.resource.md")
                  + ":1: error: resource file 'linked.resource.md' is a link that leads outside the library root");
      assertThat(library.resources()).isEmpty();
    }
  }

  @Test
  void aPromptAttachmentThatEscapesIsNeitherListedNorRead() throws IOException {
    Files.createSymbolicLink(root.resolve("escape.png"), secret);
    write(root, "p.prompt.md", """
        ---
        description: d
        ---
        ::: image escape.png
        ::: resource ../secret.txt
        ::: link promptd:///../secret.txt
        ::: link promptd:///escape.png
        """);
    try (Library library = load(root)) {
      assertThat(library.resources()).isEmpty();
      assertThat(library.read("promptd:///escape.png")).isEmpty();
      assertThat(library.read("promptd:///../secret.txt")).isEmpty();
      assertThat(library.read("promptd:///%2E%2E/secret.txt")).isEmpty();
    }
  }

  @Test
  void aLinkInsideTheRootIsFollowed() throws IOException {
    write(root, "real/notes.txt", "notes");
    Files.createSymbolicLink(root.resolve("alias.txt"), root.resolve("real/notes.txt"));
    write(root, "alias.resource.md", "---\nuri: x:alias\ndescription: d\nfile: alias.txt\n---\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.resources()).extracting(Resource::uri).containsExactly("x:alias");
      assertThat(text(library, "x:alias")).isEqualTo("notes");
    }
  }
}
