package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.promptd.mcp.annotations.AnnotatedPrompts;
import io.promptd.mcp.annotations.Arg;
import io.promptd.mcp.annotations.PromptMethod;
import io.promptd.mcp.server.PromptCatalog;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Prompts written as annotated methods, on a real SDK 2.2 modern server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AnnotatedMethodsTest {
  /** A prompt written as an annotated method. */
  public static final class CodePrompts {
    @PromptMethod(description = "Says hello")
    public String hello(
        @Arg(
                name = "who",
                values = {"Ada", "Alan"})
            String who) {
      return "Hello, " + who;
    }
  }

  @Test
  void annotatedPromptsAreListedRenderedCheckedAndCompleted() throws Exception {
    PromptCatalog catalog = PromptCatalog.of(AnnotatedPrompts.of(new CodePrompts()));
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(catalog))) {
      McpSyncClient client = sdk.client(b -> b);
      assertThat(client.prompts().list().prompts())
          .singleElement()
          .satisfies(p -> assertThat(p.name()).isEqualTo("hello"));
      McpSchema.GetPromptResult r =
          client.prompt("hello").arguments(Map.of("who", "ada")).get();
      assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
          .isEqualTo("Hello, Ada");
      assertThatThrownBy(
              () -> client.prompt("hello").arguments(Map.of("who", "Bob")).get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("must be one of Ada, Alan");
      assertThat(client
              .completion(new McpSchema.PromptReference("hello"), "who", "Al")
              .complete()
              .completion()
              .values())
          .containsExactly("Alan");
    }
  }
}
