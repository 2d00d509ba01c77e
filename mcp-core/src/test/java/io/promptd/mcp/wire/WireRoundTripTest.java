package io.promptd.mcp.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every record the wire package reads, written by its encoder and read back, equals what was
 * written. The samples set every component (checked below), so a field that one side forgets fails
 * here.
 */
class WireRoundTripTest {
  private static final JsonObject META = JsonObject.builder().put("k", "v").build();
  private static final Annotations ANNOTATIONS =
      new Annotations(List.of(Role.USER, Role.ASSISTANT), 0.5, "2026-01-02T03:04:05Z");
  private static final TextResourceContents TEXT_CONTENTS =
      new TextResourceContents("file:///a.txt", "text/plain", "hello", META);
  private static final BlobResourceContents BLOB_CONTENTS =
      new BlobResourceContents("file:///a.bin", "application/octet-stream", "AAEC", META);
  private static final List<Content> CONTENTS = List.of(
      new TextContent("hello", ANNOTATIONS, META),
      new ImageContent("iVBORw0K", "image/png", ANNOTATIONS, META),
      new AudioContent("UklGRg", "audio/wav", ANNOTATIONS, META),
      new EmbeddedResource(TEXT_CONTENTS, ANNOTATIONS, META),
      new EmbeddedResource(BLOB_CONTENTS, ANNOTATIONS, META),
      new ResourceLink(
          "file:///b.md", "b", "Bee", "a linked file", "text/markdown", 42L, ANNOTATIONS, META));
  private static final Icon ICON =
      new Icon("https://example.com/i.png", "image/png", List.of("48x48"), "dark");
  private static final PromptArgument ARGUMENT =
      new PromptArgument("file", "File", "the file to review", true);
  private static final Prompt PROMPT = new Prompt(
      "review",
      "Review",
      "reviews a file",
      List.of(ARGUMENT, PromptArgument.optional("style", null)),
      List.of(ICON),
      META);

  @ParameterizedTest
  @EnumSource(
      value = ProtocolVersion.class,
      names = {"V2025_11_25", "V2026_07_28"})
  void everyContentTypeRoundTrips(ProtocolVersion version) {
    for (Content c : CONTENTS) {
      assertEveryComponentSet(c);
      assertThat(ContentWire.decode(ContentWire.encode(c, version))).isEqualTo(c);
    }
    assertEveryComponentSet(ANNOTATIONS);
  }

  @Test
  void theSamplesCoverEveryContentType() {
    assertThat(CONTENTS.stream().map(Object::getClass).distinct())
        .containsExactlyInAnyOrder(Content.class.getPermittedSubclasses());
    assertThat(List.<Class<?>>of(TEXT_CONTENTS.getClass(), BLOB_CONTENTS.getClass()))
        .containsExactlyInAnyOrder(ResourceContents.class.getPermittedSubclasses());
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolVersion.class,
      names = {"V2025_11_25", "V2026_07_28"})
  void resourceContentsRoundTrip(ProtocolVersion version) {
    for (ResourceContents rc : List.<ResourceContents>of(TEXT_CONTENTS, BLOB_CONTENTS)) {
      assertEveryComponentSet(rc);
      assertThat(ResourceContentsWire.decode(ResourceContentsWire.encode(rc, version)))
          .isEqualTo(rc);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolVersion.class,
      names = {"V2025_11_25", "V2026_07_28"})
  void aPromptRoundTrips(ProtocolVersion version) {
    assertEveryComponentSet(PROMPT);
    assertEveryComponentSet(ARGUMENT);
    assertEveryComponentSet(ICON);
    assertThat(PromptWire.decode(PromptWire.encode(PROMPT, version))).isEqualTo(PROMPT);
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolVersion.class,
      names = {"V2025_11_25", "V2026_07_28"})
  void aPromptResultRoundTrips(ProtocolVersion version) {
    List<PromptMessage> messages = CONTENTS.stream()
        .map(c -> new PromptMessage(c instanceof TextContent ? Role.ASSISTANT : Role.USER, c))
        .toList();
    GetPromptResult result = new GetPromptResult("a review", messages, META);
    assertEveryComponentSet(result);
    assertThat(PromptResultWire.decode(PromptResultWire.encode(result, version)))
        .isEqualTo(result);
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolVersion.class,
      names = {"V2025_11_25", "V2026_07_28"})
  void aCompletionRoundTrips(ProtocolVersion version) {
    Completion completion = new Completion(List.of("a.md", "b.md"), 7, true);
    assertEveryComponentSet(completion);
    assertThat(CompletionWire.decode(CompletionWire.encode(completion))).isEqualTo(completion);
  }

  /**
   * A sample with a component left null, empty or false would not notice that component being
   * dropped.
   */
  private static void assertEveryComponentSet(Object sample) {
    assertThat(sample.getClass().isRecord()).as(sample.getClass().getName()).isTrue();
    for (RecordComponent component : sample.getClass().getRecordComponents()) {
      Object value;
      try {
        value = component.getAccessor().invoke(sample);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
      String where = sample.getClass().getSimpleName() + "." + component.getName();
      assertThat(value).as(where).isNotNull().isNotEqualTo(false);
      if (value instanceof Collection<?> c) {
        assertThat(c).as(where).isNotEmpty();
      }
    }
  }
}
