package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Front matter {@code fold: auto|always|never}: whether a prompt file is folded into one text
 * message, for clients that use only the first (Gemini CLI, Qwen Code), for every client, or for
 * none; published in the prompt's {@code _meta}, where the server reads it.
 */
class FoldFilesTest {
  private static final String BODY = """
      Here are the notes:
      ::: resource notes.md
      ::: assistant
      Noted.
      ::: user
      Now answer: {{question}}
      """;

  @TempDir
  Path root;

  @Test
  void aPromptFileIsFoldedForGeminiAndServedAsWrittenToOthers() {
    write(root, "notes.md", "keep it short\n");
    write(root, "ask.prompt.md", "---\ndescription: Asks\narguments: [question]\n---\n" + BODY);
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.catalog().get("ask").orElseThrow().prompt().meta()).isNull();
      JsonObject folded = get(server, "gemini-cli-mcp-client", "ask");
      assertThat(messages(folded)).isEqualTo(1);
      assertThat(text(folded, 0))
          .isEqualTo("Here are the notes:\n\n[resource promptd:///notes.md (text/markdown)]\n"
              + "keep it short\n[end of resource promptd:///notes.md]\n\n[assistant]\nNoted.\n\n"
              + "[user]\nNow answer: why  not?");
      assertThat(folded.string("description")).hasValue("Asks");
      JsonObject asWritten = get(server, "claude-code", "ask");
      assertThat(messages(asWritten)).isEqualTo(4);
      assertThat(text(asWritten, 3)).isEqualTo("Now answer: why  not?");
    }
  }

  @Test
  void frontMatterTurnsFoldingOnOrOffForItsPrompt() {
    write(root, "notes.md", "keep it short\n");
    write(
        root,
        "never.prompt.md",
        "---\ndescription: d\nfold: never\narguments: [question]\n---\n" + BODY);
    write(
        root,
        "always.prompt.md",
        "---\ndescription: d\nfold: Always\narguments: [question]\n---\n" + BODY);
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.catalog().get("always").orElseThrow().prompt().meta())
          .isEqualTo(JsonObject.builder().put(PromptFolding.META, "always").build());
      assertThat(messages(get(server, "gemini-cli-mcp-client", "never"))).isEqualTo(4);
      assertThat(messages(get(server, "claude-code", "always"))).isEqualTo(1);
    }
    try (Library library = load(root);
        McpServer server = McpServer.builder()
            .prompts(library.catalog())
            .folding(PromptFolding.ALWAYS)
            .build()) {
      assertThat(messages(get(server, "claude-code", "never"))).isEqualTo(4);
    }
  }

  @Test
  void aFoldThatIsNoneOfTheThreeIsAnErrorAtItsLine() throws IOException {
    write(root, "bad.prompt.md", "---\ndescription: d\nfold: sometimes\n---\nHi\n");
    write(root, "list.prompt.md", "---\ndescription: d\nfold: [auto]\n---\nHi\n");
    assertThat(Linter.check(List.of(root)).stream().map(Diagnostic::format))
        .containsExactly(
            root.resolve("bad.prompt.md")
                + ":3: error: 'fold' must be auto, always or never, not 'sometimes'",
            root.resolve("list.prompt.md") + ":3: error: 'fold' must be a string");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).isEmpty();
    }
  }

  private static int messages(JsonObject result) {
    return result.array("messages").orElseThrow().elements().size();
  }

  private static String text(JsonObject result, int message) {
    JsonObject m =
        (JsonObject) result.array("messages").orElseThrow().elements().get(message);
    return m.object("content").orElseThrow().string("text").orElseThrow();
  }

  private static JsonObject get(McpServer server, String client, String name) {
    ServerSession session = server.openSession(Outbound.discard());
    try {
      session.handle(
          request("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\""
              + client + "\",\"version\":\"1\"}}}"),
          Outbound.discard());
      String answer = MessageCodec.encode(session.handle(
          request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":\""
              + name + "\",\"arguments\":{\"question\":\"why  not?\"}}}"),
          Outbound.discard()));
      return ((JsonObject) JsonCodec.parse(answer))
          .object("result")
          .orElseThrow(() -> new AssertionError(answer));
    } finally {
      session.close();
    }
  }

  private static Request request(String text) {
    return (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
  }
}
