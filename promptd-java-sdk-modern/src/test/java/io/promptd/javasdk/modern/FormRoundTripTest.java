package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * promptd's forms as the SDK's multi round-trip requests: a {@code prompts/get} that lacks required
 * arguments, from a client that can show forms, is answered {@code input_required} with promptd's
 * form, its state sealed by the SDK's codec; the retry with the answers is rendered.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FormRoundTripTest {
  @Test
  void theSdkClientAnswersPromptdsFormAndGetsTheRender() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      List<McpSchema.ElicitFormRequest> asked = new ArrayList<>();
      McpSyncClient client = sdk.client(b -> b.formElicitation(form -> {
        asked.add(form);
        return McpSchema.ElicitResult.accept(Map.of("who", "Grace"));
      }));
      McpSchema.GetPromptResult r = client.prompt("greet").get();
      assertThat(r.messages())
          .singleElement()
          .satisfies(m ->
              assertThat(((McpSchema.TextContent) m.content()).text()).isEqualTo("Hello, Grace"));
      assertThat(asked).singleElement().satisfies(form -> {
        assertThat(form.message()).contains("greet");
        assertThat(form.requestedSchema()).containsEntry("type", "object");
        assertThat(form.requestedSchema().get("properties").toString()).contains("who");
        assertThat(form.requestedSchema()).containsEntry("required", List.of("who"));
      });
    }
  }

  @Test
  void theRequestStateIsTheSdkCodecsAndATamperedOneIsRefused() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      McpSyncClient client =
          sdk.client(b -> b.formElicitation(form -> McpSchema.ElicitResult.decline()));
      McpSchema.GetPromptOutcome first = client.prompt("greet").getOnce();
      assertThat(first).isInstanceOf(McpSchema.InputRequiredResult.class);
      McpSchema.InputRequiredResult ask = (McpSchema.InputRequiredResult) first;
      assertThat(ask.inputRequests()).containsOnlyKeys("arguments");
      Map<String, Object> answer = Map.of("action", "accept", "content", Map.of("who", "Ada"));
      String state = ask.requestState();
      // One character changed in the middle of the sealed state (a whole 6-bit Base64 digit).
      int at = state.length() / 2;
      String tampered =
          state.substring(0, at) + (state.charAt(at) == 'A' ? 'B' : 'A') + state.substring(at + 1);
      assertThatThrownBy(() -> client
              .prompt("greet")
              .inputResponses(Map.of("arguments", answer))
              .requestState(tampered)
              .getOnce())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          // The SDK's codec's own refusal: promptd never sees the tampered state.
          .hasMessageContaining("Invalid or expired requestState");
      McpSchema.GetPromptOutcome retried = client
          .prompt("greet")
          .inputResponses(Map.of("arguments", answer))
          .requestState(state)
          .getOnce();
      assertThat(retried)
          .isInstanceOfSatisfying(
              McpSchema.GetPromptResult.class,
              r -> assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
                  .isEqualTo("Hello, Ada"));
    }
  }

  @Test
  void aDeclinedFormIsPromptdsMinus32602() throws Exception {
    try (ModernSdkServer sdk = new ModernSdkServer(SdkModernPrompts.of(TestPrompts.catalog()))) {
      McpSyncClient client =
          sdk.client(b -> b.formElicitation(form -> McpSchema.ElicitResult.decline()));
      assertThatThrownBy(() -> client.prompt("greet").get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("missing required argument 'who'");
    }
  }

  @Test
  void aClientThatCanShowFormsSeesTheArgumentsAsOptional() throws Exception {
    SdkModernPrompts prompts = SdkModernPrompts.of(TestPrompts.catalog());
    try (ModernSdkServer one = new ModernSdkServer(prompts);
        ModernSdkServer other = new ModernSdkServer(prompts)) {
      assertThat(required(one.client(b -> b))).isTrue();
      assertThat(required(
              other.client(b -> b.formElicitation(form -> McpSchema.ElicitResult.cancel()))))
          .isFalse();
    }
  }

  /** Whether {@code client} is shown {@code greet}'s {@code who} as required (absent: not). */
  private static boolean required(McpSyncClient client) {
    McpSchema.Prompt greet = client.prompts().list().prompts().stream()
        .filter(p -> p.name().equals("greet"))
        .findFirst()
        .orElseThrow();
    return Boolean.TRUE.equals(greet.arguments().getFirst().required());
  }
}
