package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The public API: argument checks that say where, the catalog, and a server's lifecycle. */
class McpServerTest {
  @Test
  void builderRefusesBadSettingsAndSaysWhich() {
    assertThatThrownBy(() -> McpServer.builder().pageSize(0))
        .hasMessage("pageSize must be at least 1, not 0");
    assertThatThrownBy(() -> McpServer.builder().listTtl(Duration.ofSeconds(-1)))
        .hasMessageContaining("listTtl");
    assertThatThrownBy(() -> McpServer.builder().prompts(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("prompts");
  }

  @Test
  void catalogKeepsPromptsSortedAndRefusesDuplicateNames() {
    PromptCatalog catalog = PromptCatalog.of(List.of(prompt("b"), prompt("a")));
    assertThat(catalog.all()).extracting(PromptDefinition::name).containsExactly("a", "b");
    assertThat(catalog.remove("a")).isTrue();
    assertThat(catalog.remove("a")).isFalse();
    assertThatThrownBy(() -> catalog.replaceAll(List.of(prompt("x"), prompt("x"))))
        .hasMessage("two prompts are named 'x'");
    assertThat(catalog.size()).isEqualTo(1);
    assertThatThrownBy(() -> Prompt.of(
            "p",
            null,
            List.of(PromptArgument.required("a", null), PromptArgument.optional("a", null))))
        .hasMessage("prompt 'p': argument 'a' declared twice");
  }

  @Test
  void updatesAreAtomicAndAnnouncedOnce() {
    PromptCatalog catalog = PromptCatalog.create();
    int[] calls = new int[1];
    catalog.onChange(() -> calls[0]++);
    catalog.update(editor -> {
      editor.put(prompt("a"));
      editor.put(prompt("b"));
      assertThat(editor.contains("a")).isTrue();
    });
    assertThat(calls[0]).isEqualTo(1);
    assertThat(catalog.size()).isEqualTo(2);
  }

  /** Closing a server while another thread edits its catalog must not throw into that thread. */
  @Test
  void closingWhileTheCatalogChangesNeverThrowsIntoTheEditor() throws Exception {
    for (int round = 0; round < 150; round++) {
      PromptCatalog catalog = PromptCatalog.create();
      McpServer server =
          McpServer.builder().prompts(catalog).changeCoalescing(Duration.ZERO).build();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread editor = Thread.ofPlatform().start(() -> {
        try {
          for (int n = 0; !stop.get(); n++) {
            catalog.put(prompt("p" + n % 10));
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      Thread.sleep(1);
      server.close();
      stop.set(true);
      editor.join();
      assertThat(failure.get()).as("round %d", round).isNull();
    }
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, null, List.of()), args -> List.of(PromptMessage.user(name)));
  }
}
