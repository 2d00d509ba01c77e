package io.promptd.library;

import static io.promptd.library.Files2.errors;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentsTest {
  static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0};
  static final byte[] WAV = "RIFF\0\0\0\0WAVEfmt ".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path root;

  @TempDir
  Path elsewhere;

  @Test
  void imagesAudioResourcesAndLinksBecomeContent() {
    write(root, "img/logo.png", PNG);
    write(root, "sounds/beep.wav", WAV);
    write(root, "docs/guide.md", "# Guide\n");
    write(root, "docs/data.bin", new byte[] {1, 2, 3});
    write(root, "prompts/all.prompt.md", """
        ---
        description: d
        arguments: [uri, id]
        ---
        Look:
        ::: image ../img/logo.png
        ::: audio ../sounds/beep.wav
        ::: assistant
        ::: resource ../docs/guide.md
        ::: resource ../docs/data.bin
        ::: link https://example.com/items/{{id}}
        ::: link {{uri}} The spec
        ::: user
        ::: resource {{uri}}
        Inline {{id}} text.
        """);
    try (Library library = load(root)) {
      assertThat(library.diagnostics()).isEmpty();
      List<PromptMessage> messages =
          render(library, "prompts-all", Map.of("uri", "test://x", "id", "7")).messages();
      assertThat(messages)
          .containsExactly(
              PromptMessage.user("Look:"),
              new PromptMessage(
                  Role.USER,
                  new ImageContent(
                      Base64.getEncoder().encodeToString(PNG), "image/png", null, null)),
              new PromptMessage(
                  Role.USER,
                  new AudioContent(
                      Base64.getEncoder().encodeToString(WAV), "audio/wav", null, null)),
              new PromptMessage(
                  Role.ASSISTANT,
                  new EmbeddedResource(
                      new TextResourceContents(
                          "promptd:///docs/guide.md", "text/markdown", "# Guide\n", null),
                      null,
                      null)),
              new PromptMessage(
                  Role.ASSISTANT,
                  new EmbeddedResource(
                      new BlobResourceContents(
                          "promptd:///docs/data.bin", "application/octet-stream", "AQID", null),
                      null,
                      null)),
              new PromptMessage(
                  Role.ASSISTANT,
                  new ResourceLink(
                      "https://example.com/items/7", "7", null, null, null, null, null, null)),
              new PromptMessage(
                  Role.ASSISTANT,
                  new ResourceLink("test://x", "The spec", null, null, null, null, null, null)),
              new PromptMessage(
                  Role.USER,
                  new EmbeddedResource(
                      new TextResourceContents("test://x", "text/plain", "Inline 7 text.", null),
                      null,
                      null)));
    }
  }

  @Test
  void pathsLeavingTheRootAreRefusedAtLoadWithFileAndLine() throws IOException {
    Path outside = write(elsewhere, "secret.png", PNG);
    write(root, "escape.prompt.md", "---\ndescription: d\n---\nx\n::: image ../secret.png\n");
    write(root, "absolute.prompt.md", "---\ndescription: d\n---\n::: image " + outside + "\n");
    write(root, "home.prompt.md", "---\ndescription: d\n---\n::: resource ~/.ssh/id_rsa\n");
    Files.createSymbolicLink(root.resolve("link.png"), outside);
    write(root, "symlink.prompt.md", "---\ndescription: d\n---\n\n::: image link.png\n");
    Files.createDirectories(root.resolve("sub"));
    Files.createSymbolicLink(root.resolve("sub/up"), elsewhere);
    write(root, "dirlink.prompt.md", "---\ndescription: d\n---\n::: image sub/up/secret.png\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(errors(library))
          .containsExactly(
              root.resolve("absolute.prompt.md") + ":4: error: absolute path '" + outside
                  + "' is not allowed; use a path relative to the file",
              root.resolve("dirlink.prompt.md")
                  + ":4: error: image 'sub/up/secret.png' is a link that leads outside the"
                  + " library root",
              root.resolve("escape.prompt.md")
                  + ":5: error: path '../secret.png' resolves outside the library root",
              root.resolve("home.prompt.md")
                  + ":4: error: absolute path '~/.ssh/id_rsa' is not allowed; use a path"
                  + " relative to the file",
              root.resolve("symlink.prompt.md")
                  + ":5: error: image 'link.png' is a link that leads outside the library"
                  + " root");
    }
  }

  @Test
  void wrongTypesMissingFilesAndOversizedAttachmentsAreErrors() throws IOException {
    write(root, "fake.png", "GIF89a not a png");
    write(root, "big.png", new byte[2048]);
    write(root, "a.prompt.md", "---\ndescription: d\n---\n::: image fake.png\n");
    write(root, "b.prompt.md", "---\ndescription: d\n---\n::: image missing.png\n");
    write(root, "c.prompt.md", "---\ndescription: d\n---\n::: image notes.txt\n");
    write(root, "d.prompt.md", "---\ndescription: d\n---\n::: image big.png\n");
    write(root, "e.prompt.md", "---\ndescription: d\n---\n::: system\n::: image fake.png\n");
    LibraryOptions small = LibraryOptions.defaults().withLimits(1 << 20, 1024);
    try (Library library = Library.open(LibrarySource.folders(List.of(root)), small)) {
      assertThat(errors(library))
          .containsExactly(
              root.resolve("a.prompt.md")
                  + ":4: error: image 'fake.png' does not contain image/png data",
              root.resolve("b.prompt.md") + ":4: error: image 'missing.png' does not exist",
              root.resolve("c.prompt.md")
                  + ":4: error: image 'notes.txt' must end in one of: gif, jpeg, jpg, png, webp",
              root.resolve("d.prompt.md")
                  + ":4: error: image 'big.png' is 2048 bytes, over the limit of 1024",
              root.resolve("e.prompt.md")
                  + ":5: error: '::: image' cannot go in a system section; system text is folded"
                  + " into the first user message");
    }
  }

  @Test
  void textAfterAnAttachmentContinuesInTheSameRole() {
    write(root, "p.png", PNG);
    write(
        root,
        "p.prompt.md",
        "---\ndescription: d\n---\n::: assistant\nBefore\n::: image p.png\nAfter\n");
    try (Library library = load(root)) {
      List<PromptMessage> messages = render(library, "p", Map.of()).messages();
      assertThat(messages)
          .extracting(PromptMessage::role)
          .containsExactly(Role.ASSISTANT, Role.ASSISTANT, Role.ASSISTANT);
      assertThat(messages.get(2).content()).isEqualTo(TextContent.of("After"));
    }
  }
}
