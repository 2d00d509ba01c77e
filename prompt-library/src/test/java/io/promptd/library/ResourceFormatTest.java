package io.promptd.library;

import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.TextResourceContents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceFormatTest {
  /** A 1x1 PNG. */
  static final byte[] PNG = Base64.getDecoder()
      .decode(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");

  @TempDir
  Path root;

  @Test
  void aBodyIsTheTextAndTheListingSaysWhatItIs() {
    write(root, "docs/guide.resource.md", """
        ---
        uri: docs://guide
        title: The guide
        description: How we work
        mimeType: text/markdown
        ---
        # Guide
        Be kind.
        """);
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.resources())
          .containsExactly(new Resource(
              "docs://guide",
              "guide",
              "The guide",
              "How we work",
              "text/markdown",
              16L,
              null,
              List.of(),
              null));
      assertThat(read(library, "docs://guide"))
          .isEqualTo(
              new TextResourceContents("docs://guide", "text/markdown", "# Guide\nBe kind.", null));
    }
  }

  @Test
  void aBodyIsNotATemplateAndDefaultsToPlainText() {
    write(
        root,
        "raw.resource.md",
        "---\nuri: x:raw\nname: Raw one\ndescription: d\n---\n{{not a variable}}\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.resources())
          .extracting(Resource::name, Resource::mimeType)
          .containsExactly(Assertions.tuple("Raw one", "text/plain"));
      assertThat(read(library, "x:raw"))
          .isEqualTo(new TextResourceContents("x:raw", "text/plain", "{{not a variable}}", null));
    }
  }

  @Test
  void aFileIsServedAsTextOrAsABlobByItsType() {
    write(root, "assets/pixel.png", PNG);
    write(root, "assets/notes.json", "{\"a\":1}\r\n");
    write(root, "assets/data.bin", new byte[] {1, 2, 3});
    write(
        root,
        "r/pixel.resource.md",
        "---\nuri: test://pixel\ndescription: d\nfile: ../assets/pixel.png\n---\n");
    write(
        root,
        "r/notes.resource.md",
        "---\nuri: test://notes\ndescription: d\nfile: ../assets/notes.json\n---\n");
    write(
        root,
        "r/data.resource.md",
        "---\nuri: test://data\ndescription: d\nfile: ../assets/data.bin\n---\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(read(library, "test://pixel"))
          .isEqualTo(new BlobResourceContents(
              "test://pixel", "image/png", Base64.getEncoder().encodeToString(PNG), null));
      assertThat(read(library, "test://notes"))
          .isEqualTo(
              new TextResourceContents("test://notes", "application/json", "{\"a\":1}\n", null));
      assertThat(read(library, "test://data"))
          .isEqualTo(
              new BlobResourceContents("test://data", "application/octet-stream", "AQID", null));
      assertThat(library.resources())
          .extracting(Resource::uri, Resource::size)
          .containsExactly(
              Assertions.tuple("test://data", 3L),
              Assertions.tuple("test://notes", 9L),
              Assertions.tuple("test://pixel", (long) PNG.length));
    }
  }

  @Test
  void mistakesAreReportedWithFileAndLineAndNothingCrashes() {
    write(root, "assets/fake.png", "not a png");
    write(root, "assets/latin1.txt", new byte[] {'c', 'a', 'f', (byte) 0xe9});
    Path neither = write(root, "neither.resource.md", "---\nname: x\n---\nbody\n");
    Path both = write(root, "both.resource.md", "---\nuri: a:b\nuriTemplate: a:{b}\n---\n");
    Path bodyAndFile = write(
        root,
        "bodyfile.resource.md",
        "---\nuri: a:c\ndescription: d\nfile: assets/latin1.txt\n---\ntext too\n");
    Path fake = write(
        root, "fake.resource.md", "---\nuri: a:d\ndescription: d\nfile: assets/fake.png\n---\n");
    Path latin = write(
        root, "latin.resource.md", "---\nuri: a:e\ndescription: d\nfile: assets/latin1.txt\n---\n");
    Path noScheme =
        write(root, "noscheme.resource.md", "---\ndescription: d\nuri: just words\n---\n");
    Path yaml = write(root, "yaml.resource.md", "---\nuri: a:f\ndescription: [oops\n---\n");
    Path missing =
        write(root, "missing.resource.md", "---\nuri: a:g\ndescription: d\nfile: nope.txt\n---\n");
    Path unknown = write(
        root, "unknown.resource.md", "---\nuri: a:h\ndescription: d\nmimetype: text/x\n---\nok\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactlyInAnyOrder(
              both + ":1: error: give either 'uri' or 'uriTemplate', not both",
              bodyAndFile
                  + ":6: error: give the contents either in the body or with 'file', not both",
              fake + ":4: error: 'assets/fake.png' does not contain image/png data",
              latin
                  + ":4: error: 'assets/latin1.txt' is text/plain but not valid UTF-8: byte 0xE9 at offset 3",
              missing + ":4: error: resource file 'nope.txt' does not exist",
              neither
                  + ":1: error: a resource file needs 'uri' (one resource) or 'uriTemplate' (a family of"
                  + " resources)",
              noScheme
                  + ":3: error: 'uri' must be an absolute URI such as 'docs://guide' (scheme, ':', no spaces),"
                  + " not 'just words'",
              yaml + ":4: error: invalid front matter: expected ',' or ']', but got <stream end>",
              unknown + ":4: warning: unknown resource key 'mimetype'");
      assertThat(library.resources()).extracting(Resource::uri).containsExactly("a:h");
    }
  }

  @Test
  void twoFilesClaimingOneUriTheFirstPathWinsAndTheOtherIsWarnedAbout() {
    write(root, "a.resource.md", "---\nuri: x:same\ndescription: d\n---\nfrom a\n");
    Path b = write(root, "b.resource.md", "---\nuri: x:same\ndescription: d\n---\nfrom b\n");
    try (Library library = load(root)) {
      assertThat(text(library, "x:same")).isEqualTo("from a");
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactly(b + ":2: warning: 'x:same' is already served from "
              + root.resolve("a.resource.md") + "; this file is" + " ignored");
    }
  }

  @Test
  void theFilesPromptsAttachAreServedUnderPromptdUris() {
    write(root, "img/pixel.png", PNG);
    write(root, "docs/guide.md", "# Guide\n");
    write(root, "docs/other.md", "not attached");
    write(root, "look.prompt.md", """
        ---
        description: d
        ---
        ::: image img/pixel.png
        ::: resource docs/guide.md
        ::: link promptd:///docs/linked%20file.txt
        ```
        ::: image docs/other.md
        ```
        """);
    write(root, "docs/linked file.txt", "linked");
    try (Library library = load(root)) {
      assertThat(library.resources())
          .containsExactly(
              new Resource(
                  "promptd:///docs/guide.md",
                  "guide.md",
                  null,
                  "Attached by look.prompt.md",
                  "text/markdown",
                  null,
                  null,
                  List.of(),
                  null),
              new Resource(
                  "promptd:///docs/linked%20file.txt",
                  "linked file.txt",
                  null,
                  "Attached by look.prompt.md",
                  "text/plain",
                  null,
                  null,
                  List.of(),
                  null),
              new Resource(
                  "promptd:///img/pixel.png",
                  "pixel.png",
                  null,
                  "Attached by look.prompt.md",
                  "image/png",
                  null,
                  null,
                  List.of(),
                  null));
      assertThat(read(library, "promptd:///img/pixel.png"))
          .isEqualTo(new BlobResourceContents(
              "promptd:///img/pixel.png",
              "image/png",
              Base64.getEncoder().encodeToString(PNG),
              null));
      assertThat(text(library, "promptd:///docs/guide.md")).isEqualTo("# Guide\n");
      assertThat(library.read("promptd:///docs/other.md")).isEmpty();
    }
  }

  @Test
  void aFileWithASpaceIsListedPercentEncodedAndFoundEitherWay() {
    write(root, "docs/my notes.txt", "hello");
    write(
        root,
        "p.prompt.md",
        "---\ndescription: d\n---\nSee\n::: link promptd:///docs/my%20notes.txt\n");
    try (Library library = load(root)) {
      assertThat(library.resources())
          .extracting(Resource::uri)
          .containsExactly("promptd:///docs/my%20notes.txt");
      assertThat(text(library, "promptd:///docs/my%20notes.txt")).isEqualTo("hello");
      assertThat(text(library, "promptd:///docs/my notes.txt")).isEqualTo("hello");
    }
  }

  @Test
  void anAttachmentThatBecameUnreadableIsAnErrorNamingTheResource() throws IOException {
    write(root, "docs/guide.md", "# Guide\n");
    write(root, "p.prompt.md", "---\ndescription: d\n---\n::: resource docs/guide.md\n");
    try (Library library = load(root)) {
      Files.delete(root.resolve("docs/guide.md"));
      assertThatThrownBy(() -> library.read("promptd:///docs/guide.md"))
          .isInstanceOf(McpException.class)
          .hasMessage(
              "resource 'promptd:///docs/guide.md': attachment 'docs/guide.md' does not exist");
    }
  }

  static Library load(Path... roots) {
    try {
      return Library.open(LibrarySource.folders(List.of(roots)), LibraryOptions.defaults());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ResourceContents read(Library library, String uri) {
    List<ResourceContents> contents = library
        .read(uri)
        .orElseThrow(() ->
            new AssertionError("no resource " + uri + "; diagnostics " + library.diagnostics()));
    assertThat(contents).hasSize(1);
    return contents.getFirst();
  }

  static String text(Library library, String uri) {
    return ((TextResourceContents) read(library, uri)).text();
  }
}
