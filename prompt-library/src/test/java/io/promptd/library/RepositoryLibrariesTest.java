package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The libraries shipped in the repository: the examples and the conformance fixtures. */
class RepositoryLibrariesTest {
  static final Path EXAMPLES = Path.of("../examples/prompts");
  static final Path CONFORMANCE = Path.of("../fixtures/conformance");
  static final Path TEAM = Path.of("../examples/team");

  @Test
  void examplesLoadCleanlyAndEveryPromptHasADescription() throws IOException {
    assertThat(Linter.check(List.of(EXAMPLES))).isEmpty();
    try (Library library = load(EXAMPLES)) {
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly(
              "brand-colors",
              "explain",
              "git-commit-message",
              "review",
              "summarize",
              "translate",
              "write-tests");
      assertThat(library.catalog().all())
          .allSatisfy(p -> assertThat(p.prompt().description()).isNotBlank());
    }
  }

  @Test
  void examplesRenderSensibly() {
    try (Library library = load(EXAMPLES)) {
      GetPromptResult review =
          render(library, "review", Map.of("code", "int x = 1 / 0;", "language", "Java"));
      assertThat(review.messages())
          .singleElement()
          .satisfies(m -> assertThat(text(m))
              .startsWith("You are a senior engineer doing a careful code review.\nBe specific:")
              .contains("Review this Java code.\nFocus on: everything.")
              .endsWith("```\nint x = 1 / 0;\n```"));
      GetPromptResult commit =
          render(library, "git-commit-message", Map.of("diff", "+x", "scope", "core"));
      assertThat(commit.messages()).hasSize(3);
      assertThat(text(commit.messages().get(2)))
          .startsWith("Good. Now the real one, in conventional style with" + " scope \"core\":");
      GetPromptResult brand = render(library, "brand-colors", Map.of("styles", "a { color: red }"));
      assertThat(brand.messages().get(1).content()).isInstanceOf(ImageContent.class);
      assertThat(text(render(library, "summarize", Map.of("text", "t", "bullets", "true"))
              .messages()
              .getFirst()))
          .contains("Use bullet points");
    }
  }

  @Test
  void theTeamExampleServesItsPromptAndItsTwoSkillsInBothForms() throws IOException {
    assertThat(Linter.check(List.of(TEAM))).isEmpty();
    try (Library library = load(TEAM)) {
      assertThat(library.skills())
          .extracting(SkillFolder::path)
          .containsExactly("ops/incident-review", "release-notes");
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("ops-incident-review", "release-notes", "standup");
      GetPromptResult review =
          render(library, "ops-incident-review", Map.of("task", "INC-7: checkout down 14 min"));
      assertThat(review.messages()).hasSize(3);
      assertThat(review.messages().getFirst().content())
          .isInstanceOfSatisfying(
              EmbeddedResource.class,
              e ->
                  assertThat(e.resource().uri()).isEqualTo("skill://ops/incident-review/SKILL.md"));
      assertThat(text(review.messages().get(2))).endsWith("INC-7: checkout down 14 min");
    }
  }

  @Test
  void conformanceFixturesMatchWhatTheSuiteExpects() throws IOException {
    assertThat(Linter.check(List.of(CONFORMANCE))).isEmpty();
    try (Library library = load(CONFORMANCE)) {
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly(
              "test_prompt_with_arguments",
              "test_prompt_with_embedded_resource",
              "test_prompt_with_image",
              "test_simple_prompt");
      assertThat(render(library, "test_simple_prompt", Map.of()).messages()).isNotEmpty();
      assertThat(text(render(
                  library,
                  "test_prompt_with_arguments",
                  Map.of("arg1", "testValue1", "arg2", "testValue2"))
              .messages()
              .getFirst()))
          .contains("testValue1")
          .contains("testValue2");
      List<PromptMessage> embedded = render(
              library,
              "test_prompt_with_embedded_resource",
              Map.of("resourceUri", "test://example-resource"))
          .messages();
      assertThat(embedded.getFirst().content())
          .isInstanceOfSatisfying(
              EmbeddedResource.class,
              r -> assertThat(r.resource().uri()).isEqualTo("test://example-resource"));
      ImageContent image = (ImageContent) render(library, "test_prompt_with_image", Map.of())
          .messages()
          .getFirst()
          .content();
      assertThat(image.mimeType()).isEqualTo("image/png");
      assertThat(Base64.getDecoder().decode(image.data()))
          .isEqualTo(Files.readAllBytes(CONFORMANCE.resolve("assets/test-image.png")));
    }
  }

  @Test
  void servedThroughARealServer() {
    try (Library library = load(CONFORMANCE, EXAMPLES);
        McpHarness mcp = new McpHarness(library.catalog())) {
      assertThat(mcp.call("prompts/get", """
          {"name":"test_prompt_with_arguments","arguments":{"arg1":"testValue1","arg2":"testValue2"}}""")).isEqualTo("""
              {"jsonrpc":"2.0","id":2,"result":{"description":"A prompt with required arguments","messages":[\
              {"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='testValue1',\
               arg2='testValue2'"}}]}}""");
      assertThat(mcp.call("prompts/get", """
          {"name":"translate","arguments":{"text":"hi","language":"Klingon"}}""")).isEqualTo("""
              {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"prompt 'translate': argument 'language'\
               must be one of English, French, German, Spanish, Italian, Portuguese, Dutch, Polish, Japanese,\
               Chinese (Simplified), Korean, not 'Klingon'"}}""");
      assertThat(mcp.call("completion/complete", """
          {"ref":{"type":"ref/prompt","name":"write-tests"},"argument":{"name":"framework","value":"j"},\
          "context":{"arguments":{"language":"Java"}}}""")).isEqualTo("""
              {"jsonrpc":"2.0","id":4,"result":{"completion":{"values":["JUnit 5"],"total":1,"hasMore":false}}}""");
      assertThat(mcp.call("completion/complete", """
          {"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"test"}}""")).contains("\"values\":[]");
      assertThat(mcp.call("prompts/get", """
          {"name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"test://example-resource"}}""")).contains("""
              {"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource",\
              "mimeType":"text/plain","text":"Embedded resource content for testing."}}}""");
      assertThat(mcp.call("prompts/get", "{\"name\":\"test_prompt_with_image\"}"))
          .contains("{\"role\":\"user\",\"content\":{\"type\":\"image\",\"data\":\"iVBORw0KGgo")
          .contains("\"mimeType\":\"image/png\"");
    }
  }
}
