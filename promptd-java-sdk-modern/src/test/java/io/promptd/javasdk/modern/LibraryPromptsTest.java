package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prompt folder's typed arguments on a real SDK modern server: a value outside a prompt's choices
 * is -32602 naming it, or, for a client that can show forms, asked again; prompts that require
 * scopes are left out unless asked for.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LibraryPromptsTest {
  private static final String TRANSLATE = """
      ---
      description: Translate a text
      arguments:
        - name: text
          required: true
        - name: language
          enum: [English, French, German]
          required: true
      ---
      Translate into {{language}}: {{text}}
      """;

  @TempDir
  Path dir;

  private Library library() throws Exception {
    Files.writeString(dir.resolve("translate.prompt.md"), TRANSLATE);
    Files.createDirectories(dir.resolve("admin"));
    Files.writeString(dir.resolve("admin/_folder.yaml"), "scopes: [admin]\n");
    Files.writeString(dir.resolve("admin/rotate.prompt.md"), "---\ndescription: r\n---\nRotate\n");
    return Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults());
  }

  @Test
  void aValueOutsideTheChoicesIsRefusedNamingIt() throws Exception {
    try (Library library = library();
        ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(library.catalog()))) {
      McpSyncClient client = sdk.client(b -> b);
      assertThatThrownBy(() -> client
              .prompt("translate")
              .arguments(Map.of("text", "Hallo", "language", "Klingon"))
              .get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("language")
          .hasMessageContaining("Klingon");
      McpSchema.GetPromptResult r = client
          .prompt("translate")
          .arguments(Map.of("text", "Hallo", "language", "French"))
          .get();
      assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
          .isEqualTo("Translate into French: Hallo");
    }
  }

  @Test
  void aClientThatCanShowFormsIsAskedAgainForAValueOutsideTheChoices() throws Exception {
    List<McpSchema.ElicitFormRequest> asked = new ArrayList<>();
    try (Library library = library();
        ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(library.catalog()))) {
      McpSyncClient client = sdk.client(b -> b.formElicitation(form -> {
        asked.add(form);
        return McpSchema.ElicitResult.accept(Map.of("language", "German"));
      }));
      McpSchema.GetPromptResult r = client
          .prompt("translate")
          .arguments(Map.of("text", "Hello", "language", "Klingon"))
          .get();
      assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
          .isEqualTo("Translate into German: Hello");
      assertThat(asked)
          .singleElement()
          .satisfies(form -> assertThat(form.requestedSchema().get("properties").toString())
              .contains("language")
              .contains("French"));
    }
  }

  @Test
  void promptsThatRequireScopesAreLeftOutUnlessAskedFor() throws Exception {
    try (Library library = library();
        ModernSdkServer open = new ModernSdkServer(SdkModernPrompts.of(library.catalog()));
        ModernSdkServer all =
            new ModernSdkServer(SdkModernPrompts.of(library.catalog()).includingScoped())) {
      McpSyncClient openClient = open.client(b -> b);
      assertThat(openClient.prompts().list().prompts())
          .extracting(McpSchema.Prompt::name)
          .containsExactly("translate");
      assertThatThrownBy(() -> openClient.prompt("admin-rotate").get())
          .hasMessageContaining("Unknown prompt");
      assertThat(all.client(b -> b).prompts().list().prompts())
          .extracting(McpSchema.Prompt::name)
          .containsExactlyInAnyOrder("translate", "admin-rotate");
    }
  }
}
