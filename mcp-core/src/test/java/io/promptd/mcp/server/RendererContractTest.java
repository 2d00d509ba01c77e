package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a renderer may do wrong, and what the client sees: a safe message, never a class name or a
 * stack trace.
 */
class RendererContractTest {
  @Test
  void aRendererMayRejectAValueWithInvalidParams() {
    assertThat(get(args -> {
          throw McpException.invalidParams("prompt 'p': argument 'n' must be a number");
        }))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"prompt 'p': argument 'n' must be a number\"}}");
  }

  @Test
  void checkedExceptionsAndNullResultsBecomeSafeInternalErrors() {
    assertThat(get(args -> {
          throw new IOException("/home/alice/secret.txt (No such file or directory)");
        }))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"prompt 'p' failed to render\"}}");
    assertThat(get(args -> null))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"prompt 'p' rendered nothing\"}}");
  }

  @Test
  void aRendererThatRecursesForeverStillGetsAnAnswer() {
    assertThat(get(args -> {
          throw new StackOverflowError();
        }))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"prompt 'p' failed to render\"}}");
  }

  @Test
  void aRendererThatCannotLoadAClassStillGetsAnAnswer() {
    assertThat(get(args -> {
          throw new NoClassDefFoundError("com/example/Missing");
        }))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"prompt 'p' failed to render\"}}");
  }

  @Test
  void aCompleterThatFailsStillGetsAnAnswer() {
    Prompt prompt = Prompt.of("p", null, List.of(PromptArgument.optional("a", null)));
    PromptCatalog catalog = PromptCatalog.of(
        List.of(new PromptDefinition(prompt, args -> null, (argument, value, context) -> {
          throw new StackOverflowError();
        })));
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      Response response = server
          .openSession(new Recorder())
          .handle(
              Wire.modern(
                  2,
                  "completion/complete",
                  "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},\"argument\":{\"name\":\"a\",\"value\":\"\"}"),
              new Recorder());
      assertThat(MessageCodec.encode(response))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":\"Internal error while serving completion/complete\"}}");
    }
  }

  private static String get(PromptRenderer renderer) {
    PromptCatalog catalog = PromptCatalog.of(
        List.of(new PromptDefinition(Prompt.of("p", null, List.of()), renderer, null)));
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      Response response = server
          .openSession(new Recorder())
          .handle(Wire.modern(1, "prompts/get", "\"name\":\"p\""), new Recorder());
      String json = MessageCodec.encode(response);
      SchemaHarness.of(ProtocolVersion.V2026_07_28).assertConforms(json, null);
      return json;
    }
  }
}
