package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A catalog that changes under a running SDK server: listeners hear {@code prompts/list_changed},
 * and the next listing, render and completion are of the catalog as it is now.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CatalogChangesTest {
  @Test
  void listenersHearOfChangesAndTheNextRequestsSeeThem() throws Exception {
    PromptCatalog catalog = TestPrompts.catalog();
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(catalog))) {
      McpSyncClient client = sdk.client(b -> b);
      BlockingQueue<SubscriptionEvent> events = new LinkedBlockingQueue<>();
      try (McpSyncClient.Listening listening = client.listen().promptsChanged().open(events::add)) {
        assertThat(events.poll(30, TimeUnit.SECONDS))
            .isInstanceOf(SubscriptionEvent.Subscribed.class);
        catalog.put(PromptDefinition.of(
            Prompt.of("bye", "Says bye", List.of()), args -> List.of(PromptMessage.user("Bye"))));
        assertThat(events.poll(30, TimeUnit.SECONDS))
            .isInstanceOf(SubscriptionEvent.PromptsListChanged.class);
      }
      assertThat(client.prompts().list().prompts())
          .extracting(McpSchema.Prompt::name)
          .contains("bye");
      McpSchema.GetPromptResult bye = client.prompt("bye").arguments(Map.of()).get();
      assertThat(((McpSchema.TextContent) bye.messages().getFirst().content()).text())
          .isEqualTo("Bye");
      catalog.remove("greet");
      assertThat(client.prompts().list().prompts())
          .extracting(McpSchema.Prompt::name)
          .doesNotContain("greet");
    }
  }
}
