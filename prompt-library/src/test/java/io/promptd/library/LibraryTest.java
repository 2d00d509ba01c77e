package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.HotReloadTest.eventually;
import static io.promptd.library.ResourceFormatTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One library for prompts and resources: one load, one watcher, one version. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibraryTest {
  @TempDir
  Path root;

  @Test
  void oneLoadServesPromptsResourcesAndAttachmentsFromThePromptParse() throws IOException {
    write(root, "notes/a.txt", "A");
    write(root, "notes/b.txt", "B");
    write(root, "docs/guide.resource.md", "---\nuri: docs://guide\ndescription: g\n---\nGuide\n");
    // The fenced marker is text, not an attachment: only what the prompt parse attaches is served.
    write(
        root,
        "ask.prompt.md",
        "---\ndescription: d\n---\nSee:\n::: resource notes/a.txt\n"
            + "```\n::: resource notes/b.txt\n```\n");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      assertThat(library.catalog().all()).extracting(PromptDefinition::name).containsExactly("ask");
      assertThat(library.resources())
          .extracting(Resource::uri)
          .containsExactly("docs://guide", "promptd:///notes/a.txt");
      assertThat(text(library, "promptd:///notes/a.txt")).isEqualTo("A");
      assertThat(library.read("promptd:///notes/b.txt")).isEmpty();
      assertThat(library.version()).isEqualTo(1);
      assertThat(library.diagnostics()).isEmpty();
    }
  }

  @Test
  void resourceChangesBetweenLoadAndWatchAreCaughtUp() throws IOException {
    write(root, "kept.resource.md", "---\nuri: docs://kept\ndescription: k\n---\nK1\n");
    write(root, "gone.resource.md", "---\nuri: docs://gone\ndescription: g\n---\nG\n");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      write(root, "kept.resource.md", "---\nuri: docs://kept\ndescription: k\n---\nK2 changed\n");
      write(root, "new.resource.md", "---\nuri: docs://new\ndescription: n\n---\nN\n");
      Files.delete(root.resolve("gone.resource.md"));
      library.watch();
      assertThat(library.resources())
          .extracting(Resource::uri)
          .containsExactly("docs://kept", "docs://new");
      assertThat(text(library, "docs://kept")).isEqualTo("K2 changed");
      assertThat(library.version()).isEqualTo(2);
    }
  }

  @Test
  void theVersionGrowsWithEveryChangeThatIsServed() throws IOException {
    write(root, "a.prompt.md", "---\ndescription: d\n---\nA1\n");
    write(root, "r.resource.md", "---\nuri: docs://r\ndescription: r\n---\nR1\n");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      library.watch();
      assertThat(library.version()).isEqualTo(1);
      write(root, "a.prompt.md", "---\ndescription: d\n---\nA2\n");
      eventually(() -> library.version() == 2);
      write(root, "r.resource.md", "---\nuri: docs://r\ndescription: r\n---\nR2\n");
      eventually(() -> library.version() == 3);
      assertThat(text(library, "docs://r")).isEqualTo("R2");
      assertThat(library.catalog().version()).isEqualTo(2);
    }
  }
}
