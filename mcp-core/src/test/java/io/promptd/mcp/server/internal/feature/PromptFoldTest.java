package io.promptd.mcp.server.internal.feature;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Prompts folded into one text message for clients that use only the first one (Gemini CLI, Qwen
 * Code); every other client gets the messages as rendered.
 */
@Timeout(30)
class PromptFoldTest {
  /** One of each kind of content, the speaker changing twice. */
  private static final GetPromptResult EVERY_KIND = new GetPromptResult(
      "Check the palette",
      List.of(
          user(TextContent.of("Look at this palette:")),
          user(new ImageContent("AAAA", "image/png", null, null)),
          PromptMessage.assistant("I see five colours."),
          user(new EmbeddedResource(
              new TextResourceContents(
                  "file:///lib/notes.md", "text/markdown", "# Notes\nkeep it short\n", null),
              null,
              null)),
          user(new EmbeddedResource(
              new BlobResourceContents("file:///lib/logo.pdf", "application/pdf", "AAAAAA==", null),
              null,
              null)),
          user(new AudioContent("AAAAAAAA", "audio/wav", null, null)),
          user(new ResourceLink(
              "skill://ops/x/scripts/collect.sh",
              "scripts/collect.sh",
              null,
              null,
              "text/x-shellscript",
              120L,
              null,
              null)),
          user(TextContent.of("Now check: good  morning"))),
      JsonObject.builder().put("k", "v").build());

  private static final String EVERY_KIND_FOLDED = """
      Look at this palette:

      [image (image/png, 3 bytes), not included]

      [assistant]
      I see five colours.

      [user]
      [resource file:///lib/notes.md (text/markdown)]
      # Notes
      keep it short
      [end of resource file:///lib/notes.md]

      [resource file:///lib/logo.pdf (application/pdf, 4 bytes), not included]

      [audio (audio/wav, 6 bytes), not included]

      [link skill://ops/x/scripts/collect.sh (text/x-shellscript, 120 bytes)]

      Now check: good  morning""";

  @Test
  void everyKindOfContentIsFoldedInOrderWithTheSpeakersMarked() {
    GetPromptResult folded = PromptFold.fold(EVERY_KIND);
    assertThat(folded.messages())
        .containsExactly(new PromptMessage(Role.USER, TextContent.of(EVERY_KIND_FOLDED)));
    assertThat(folded.description()).isEqualTo("Check the palette");
    assertThat(folded.meta()).isEqualTo(EVERY_KIND.meta());
  }

  @Test
  void aPromptThatStartsWithTheAssistantSaysSo() {
    GetPromptResult result = GetPromptResult.of(
        null,
        List.of(
            PromptMessage.assistant("Hello."),
            PromptMessage.assistant("How can I help?"),
            PromptMessage.user("Translate this.")));
    assertThat(text(PromptFold.fold(result)))
        .isEqualTo("[assistant]\nHello.\n\nHow can I help?\n\n[user]\nTranslate this.");
  }

  @Test
  void oneUserTextWithinTheBoundIsLeftAsItIs() {
    GetPromptResult one = GetPromptResult.of(
        "d",
        List.of(
            user(new TextContent("hi", null, JsonObject.builder().put("a", 1).build()))));
    assertThat(PromptFold.fold(one)).isSameAs(one);
    GetPromptResult none = GetPromptResult.of("d", List.of());
    assertThat(PromptFold.fold(none)).isSameAs(none);
  }

  @Test
  void embeddedResourcesAreShortenedFirstSoThatThePromptsOwnTextStaysWhole() {
    String big = "x".repeat(3000) + "\n";
    GetPromptResult result = GetPromptResult.of(
        null,
        List.of(
            user(resource("file:///a.md", "a".repeat(500))),
            user(resource("file:///b.md", big)),
            PromptMessage.user("The words I typed: café ☕ 要約")));
    String text = text(PromptFold.fold(result, 1500));
    assertThat(PromptFold.utf8Length(text)).isLessThanOrEqualTo(1500);
    assertThat(text)
        .startsWith(
            "[resource file:///a.md]\n" + "a".repeat(500) + "\n[end of resource file:///a.md]")
        .contains("[resource file:///b.md]\nxxx")
        .containsPattern("x\n\\[cut here: the remaining \\d+ bytes of this resource are not"
            + " included; a prompt folded into one message holds at most 1500 bytes]\n"
            + "\\[end of resource file:///b.md]")
        .endsWith("\n\nThe words I typed: café ☕ 要約");
    int left = Integer.parseInt(text.replaceAll("(?s).*the remaining (\\d+) bytes.*", "$1"));
    assertThat(left + text.indexOf("\n[cut here") - text.indexOf("xxx"))
        .as("kept and left out make the whole resource")
        .isEqualTo(big.length());

    // Not enough with the last resource gone: the one before it goes too.
    String both = text(PromptFold.fold(result, 450));
    assertThat(PromptFold.utf8Length(both)).isLessThanOrEqualTo(450);
    assertThat(both)
        .containsPattern(
            "^\\[resource file:///a.md]\na+\n\\[cut here: the remaining \\d+ bytes of this"
                + " resource")
        .contains("[resource file:///b.md]\n[cut here: the remaining 3001 bytes of this resource")
        .endsWith("\n\nThe words I typed: café ☕ 要約");
  }

  @Test
  void aPromptWhoseOwnTextIsLongerIsCutAtItsEndWithANote() {
    GetPromptResult result = GetPromptResult.of(
        null, List.of(PromptMessage.user("要".repeat(200)), PromptMessage.assistant("ok")));
    String text = text(PromptFold.fold(result, 300));
    assertThat(PromptFold.utf8Length(text)).isLessThanOrEqualTo(300);
    assertThat(text)
        .startsWith("要要要")
        .matches("(?s)要+\n\\[cut here: the remaining \\d+ bytes of the prompt are not included;"
            + " a prompt folded into one message holds at most 300 bytes]");
    assertThat(PromptFold.fold(result).messages()).hasSize(1);
    assertThat(text(PromptFold.fold(result))).isEqualTo("要".repeat(200) + "\n\n[assistant]\nok");
  }

  @Test
  void sizesAreTheBytesTheBase64StandsFor() {
    assertThat(PromptFold.decodedSize("")).isZero();
    assertThat(PromptFold.decodedSize("AA==")).isEqualTo(1);
    assertThat(PromptFold.decodedSize("AAA=")).isEqualTo(2);
    assertThat(PromptFold.decodedSize("AAAA\nAAAA")).isEqualTo(6);
    assertThat(PromptFold.prefix("aé☕😀", 6)).isEqualTo("aé☕");
    assertThat(PromptFold.prefix("aé☕😀", 10)).isEqualTo("aé☕😀");
    assertThat(PromptFold.utf8Length("aé☕😀")).isEqualTo(10);
  }

  @Test
  void geminiAndQwenGetTheWholePromptInOneTextMessageInBothEras() {
    try (McpServer server = McpServer.builder().build()) {
      server.prompts().put(definition("p", null));
      for (String client : List.of("gemini-cli-mcp-client", "qwen-cli-mcp-client-promptd")) {
        JsonObject result = legacyGet(server, client, "p");
        assertThat(JsonCodec.write(result.get("messages")))
            .isEqualTo("[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":"
                + JsonCodec.write(new JsonString(EVERY_KIND_FOLDED)) + "}}]");
        assertThat(result.string("description")).hasValue("Check the palette");
      }
      JsonObject modern = modernGet(server.openStateless(), "gemini-cli-mcp-client", "p");
      assertThat(modern.array("messages").orElseThrow().elements()).hasSize(1);
    }
  }

  @Test
  void everyOtherClientGetsTheMessagesAsRendered() {
    try (McpServer server = McpServer.builder().build()) {
      server.prompts().put(definition("p", null));
      JsonObject asRendered = legacyGet(server, "claude-code", "p");
      assertThat(asRendered.array("messages").orElseThrow().elements()).hasSize(8);
      assertThat(legacyGet(server, "opencode", "p")).isEqualTo(asRendered);
      assertThat(modernGet(server.openStateless(), "claude-code", "p"))
          .extracting(r -> r.get("messages"))
          .isEqualTo(asRendered.get("messages"));
      assertThat(JsonCodec.write(asRendered.get("messages")))
          .startsWith("[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Look at this"
              + " palette:\"}},{\"role\":\"user\",\"content\":{\"type\":\"image\"");
    }
  }

  @Test
  void aPromptsOwnSettingOverridesTheServersAndTheServersTheClientRule() {
    try (McpServer server = McpServer.builder().folding(PromptFolding.NEVER).build()) {
      server.prompts().put(definition("plain", null));
      server.prompts().put(definition("always", "always"));
      server.prompts().put(definition("auto", "auto"));
      JsonObject asRendered = legacyGet(server, "claude-code", "plain");
      assertThat(legacyGet(server, "gemini-cli-mcp-client", "plain")).isEqualTo(asRendered);
      assertThat(messages(legacyGet(server, "claude-code", "always"))).isEqualTo(1);
      assertThat(messages(legacyGet(server, "gemini-cli-mcp-client", "auto"))).isEqualTo(1);
      assertThat(messages(legacyGet(server, "claude-code", "auto"))).isEqualTo(8);
    }
    try (McpServer server = McpServer.builder().folding(PromptFolding.ALWAYS).build()) {
      server.prompts().put(definition("plain", null));
      server.prompts().put(definition("never", "never"));
      server.prompts().put(definition("odd", "sometimes"));
      assertThat(messages(legacyGet(server, "claude-code", "plain"))).isEqualTo(1);
      assertThat(messages(legacyGet(server, "gemini-cli-mcp-client", "never"))).isEqualTo(8);
      assertThat(messages(legacyGet(server, "claude-code", "odd")))
          .as("a setting that is none of the three leaves the server's")
          .isEqualTo(1);
    }
  }

  // --- helpers

  private static PromptMessage user(Content content) {
    return new PromptMessage(Role.USER, content);
  }

  private static EmbeddedResource resource(String uri, String text) {
    return new EmbeddedResource(new TextResourceContents(uri, null, text, null), null, null);
  }

  private static String text(GetPromptResult result) {
    assertThat(result.messages()).hasSize(1);
    return ((TextContent) result.messages().getFirst().content()).text();
  }

  private static int messages(JsonObject result) {
    return result.array("messages").orElseThrow().elements().size();
  }

  private static PromptDefinition definition(String name, @Nullable String fold) {
    Prompt prompt = new Prompt(
        name,
        null,
        "Check the palette",
        List.of(),
        List.of(),
        fold == null ? null : JsonObject.builder().put(PromptFolding.META, fold).build());
    return new PromptDefinition(prompt, args -> EVERY_KIND, null);
  }

  private static JsonObject legacyGet(McpServer server, String client, String name) {
    ServerSession session = server.openSession(new Recorder());
    try {
      session.handle(
          Wire.request("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\""
              + client + "\",\"version\":\"1\"}}}"),
          new Recorder());
      String answer = MessageCodec.encode(session.handle(
          Wire.legacy(1, "prompts/get", "\"name\":\"" + name + "\""), new Recorder()));
      JsonObject message = (JsonObject) JsonCodec.parse(answer);
      return message.object("result").orElseThrow(() -> new AssertionError(answer));
    } finally {
      session.close();
    }
  }

  private static JsonObject modernGet(StatelessEndpoint stateless, String client, String name) {
    Request r = Wire.request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\","
        + "\"params\":{\"name\":\"" + name + "\",\"_meta\":{"
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{},"
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + client
        + "\",\"version\":\"1\"}}}}");
    Response response = stateless
        .receive(
            new Incoming.Single(r),
            new RequestHeaders("2026-07-28", "prompts/get", name),
            Caller.UNRESTRICTED)
        .run(new Recorder())
        .response();
    JsonObject message =
        (JsonObject) JsonCodec.parse(MessageCodec.encode(Objects.requireNonNull(response)));
    return message.object("result").orElseThrow(() -> new AssertionError(message));
  }
}
