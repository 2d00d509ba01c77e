package io.promptd.bench;

import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.List;

/** The referee's prompts (shared/bench README): code_review, greeting, and N fillers pNNNNN. */
public final class Fixtures {
  private Fixtures() {}

  /** A catalog with the two load prompts and {@code fillers} filler prompts. */
  public static PromptCatalog catalog(int fillers) {
    List<PromptDefinition> all = new ArrayList<>();
    Prompt review = new Prompt(
        "code_review",
        "Code Review",
        "Asks the model to review a piece of code",
        List.of(PromptArgument.required("code", "The code to review")),
        List.of(),
        null);
    all.add(new PromptDefinition(
        review,
        a -> GetPromptResult.of(
            review.description(),
            List.of(PromptMessage.user("Please review this code:\n" + a.get("code")))),
        null));
    Prompt greeting = Prompt.of(
        "greeting", "A friendly greeting", List.of(PromptArgument.optional("name", "Who")));
    all.add(new PromptDefinition(
        greeting,
        a -> GetPromptResult.of(
            greeting.description(),
            List.of(PromptMessage.user("Hello, " + a.getOrDefault("name", "there") + "!"))),
        null));
    int digits = Math.max(5, String.valueOf(fillers).length());
    for (int i = 1; i <= fillers; i++) {
      String name = String.format("p%0" + digits + "d", i);
      Prompt p = Prompt.of(
          name,
          "Filler prompt " + name + " for list and lookup benchmarks",
          List.of(
              PromptArgument.required("topic", "Topic"), PromptArgument.optional("tone", "Tone")));
      all.add(new PromptDefinition(
          p,
          a -> GetPromptResult.of(
              p.description(),
              List.of(PromptMessage.user("Write about " + a.get("topic") + " in a "
                  + a.getOrDefault("tone", "") + " tone."))),
          null));
    }
    return PromptCatalog.of(all);
  }
}
