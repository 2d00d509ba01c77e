package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** promptd's prompts on a real SDK 2.2 modern server, asked by the SDK's own modern client. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SdkModernPromptsTest {
  @Test
  void listsInPromptdsPagesWithItsCursorsAndCacheHints() throws Exception {
    SdkModernPrompts prompts =
        SdkModernPrompts.of(TestPrompts.catalog()).pageSize(2).listTtl(Duration.ofSeconds(7));
    try (ModernSdkServer sdk = new ModernSdkServer(prompts)) {
      McpSyncClient client = sdk.client(b -> b);
      List<String> names = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        McpSchema.ListPromptsResult page = client.prompts().cursor(cursor).list();
        assertThat(page.ttlMs()).isEqualTo(7_000L);
        // promptd's rule: what a listing longer than a page shows depends on the client.
        assertThat(page.cacheScope()).isEqualTo(McpSchema.CacheScope.PRIVATE);
        page.prompts().forEach(p -> names.add(p.name()));
        cursor = page.nextCursor();
        pages++;
      } while (cursor != null);
      assertThat(names).containsExactly("greet", "p1", "p2", "p3", "p4");
      assertThat(pages).isEqualTo(3);
      assertThatThrownBy(() -> client.prompts().cursor("not-a-cursor").list())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("Invalid cursor: not one this server issued");
    }
  }

  @Test
  void aListingOfOnePageMayBeSharedBetweenCallers() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      McpSchema.ListPromptsResult page = sdk.client(b -> b).prompts().list();
      assertThat(page.prompts()).hasSize(5);
      assertThat(page.nextCursor()).isNull();
      assertThat(page.ttlMs()).isEqualTo(10_000L);
      assertThat(page.cacheScope()).isEqualTo(McpSchema.CacheScope.PUBLIC);
    }
  }

  @Test
  void rendersWithPromptdsChecks() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      McpSyncClient client = sdk.client(b -> b);
      McpSchema.GetPromptResult r =
          client.prompt("greet").arguments(Map.of("who", "Ada")).get();
      assertThat(r.description()).isEqualTo("Greeting");
      assertThat(r.messages())
          .singleElement()
          .satisfies(m ->
              assertThat(((McpSchema.TextContent) m.content()).text()).isEqualTo("Hello, Ada"));
      assertThatThrownBy(() -> client.prompt("greet").get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("prompt 'greet': missing required argument 'who'");
      assertThatThrownBy(() -> client
              .prompt("greet")
              .arguments(Map.of("who", "Ada", "mood", "x"))
              .get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("prompt 'greet': unknown argument 'mood'");
      assertThatThrownBy(() -> client.prompt("nope").get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("Unknown prompt: nope");
      assertThatThrownBy(
              () -> client.prompt("greet").arguments(Map.of("who", "nobody")).get())
          .hasMessageContaining("'nobody' cannot be greeted");
      assertThatThrownBy(
              () -> client.prompt("greet").arguments(Map.of("who", "crash")).get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32603))
          .hasMessageContaining("prompt 'greet' failed to render")
          .hasMessageNotContaining("Secret");
    }
  }

  @Test
  void completesArguments() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      McpSyncClient client = sdk.client(b -> b);
      McpSchema.CompleteResult r =
          client.completion(new McpSchema.PromptReference("greet"), "who", "A").complete();
      assertThat(r.completion().values()).containsExactly("Ada", "Alan");
    }
  }

  @Test
  void settingsSayWhatIsWrong() {
    SdkModernPrompts prompts = SdkModernPrompts.of(TestPrompts.catalog());
    assertThatThrownBy(() -> prompts.pageSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("SdkModernPrompts.pageSize must be at least 1, not 0");
    assertThatThrownBy(() -> prompts.sharedSecret(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("SdkModernPrompts.sharedSecret must be at least 16 bytes, not 8");
    assertThatThrownBy(() -> SdkModernPrompts.of(null)).hasMessage("catalog");
  }
}
