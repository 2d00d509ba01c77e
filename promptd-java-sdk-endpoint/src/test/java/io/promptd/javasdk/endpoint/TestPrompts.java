package io.promptd.javasdk.endpoint;

import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.List;

/** The prompts the tests serve: {@code greet}, with checks and a completer, and four plain ones. */
final class TestPrompts {
  private TestPrompts() {}

  static PromptDefinition greet() {
    return new PromptDefinition(
        Prompt.of(
            "greet",
            "Greets someone",
            List.of(PromptArgument.required("who", "Whom"), PromptArgument.optional("tone", null))),
        args -> {
          if (args.get("who").equals("nobody")) {
            throw McpException.invalidParams("prompt 'greet': 'nobody' cannot be greeted");
          }
          if (args.get("who").equals("crash")) {
            throw new IllegalStateException("internal detail at com.example.Secret");
          }
          return GetPromptResult.of(
              "Greeting", List.of(PromptMessage.user("Hello, " + args.get("who"))));
        },
        (argument, value, context) -> Completion.of(List.of("Ada", "Alan", "Grace").stream()
            .filter(v -> v.startsWith(value))
            .toList()));
  }

  static PromptCatalog catalog() {
    List<PromptDefinition> prompts = new ArrayList<>(List.of(greet()));
    for (int i = 1; i <= 4; i++) {
      prompts.add(PromptDefinition.of(
          Prompt.of("p" + i, "Prompt " + i, List.of()),
          args -> List.of(PromptMessage.user("text"))));
    }
    return PromptCatalog.of(prompts);
  }
}
