package io.promptd.library.render;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.PromptFile;
import io.promptd.mcp.server.PromptDefinition;
import java.util.HashMap;
import java.util.Map;

/** Makes the served form of a parsed prompt file. */
public final class Definitions {
  private Definitions() {}

  /**
   * The definition the catalog holds for {@code file}; completes only when some argument has values
   * to offer.
   */
  public static PromptDefinition of(PromptFile file) {
    Map<String, ArgumentSpec> completable = new HashMap<>();
    for (ArgumentSpec spec : file.arguments()) {
      if (!spec.enumValues().isEmpty() || !spec.examples().isEmpty()) {
        completable.put(spec.name(), spec);
      }
    }
    return new PromptDefinition(
        file.prompt(),
        new FileRenderer(file),
        completable.isEmpty() ? null : new ChoiceCompleter(completable));
  }
}
