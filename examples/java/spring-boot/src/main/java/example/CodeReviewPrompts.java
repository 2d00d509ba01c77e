package example;

import io.modelcontextprotocol.spec.McpSchema.CompleteRequest.CompleteArgument;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.stereotype.Component;

/**
 * A prompt written with Spring AI's annotations, served beside the folder's prompt files. A client
 * that shows forms and leaves out {@code code} is asked for it in a form.
 */
@Component
public class CodeReviewPrompts {
  /** The languages a review knows; a client offers them as choices. */
  public enum Language {
    JAVA,
    KOTLIN,
    PYTHON,
    TYPESCRIPT
  }

  @McpPrompt(name = "code-review", title = "Code review", description = "Reviews a piece of code")
  public String review(
      @McpArg(name = "code", description = "The code to review", required = true) String code,
      @McpArg(name = "language", description = "The code's language") Language language,
      @McpArg(name = "focus", description = "What to look at most") String focus) {
    return "Review this " + (language == null ? "" : language.name().toLowerCase(Locale.ROOT) + " ")
        + "code" + (focus == null ? "" : ", looking most at " + focus) + ":\n\n" + code;
  }

  @McpComplete(prompt = "code-review")
  public List<String> complete(CompleteArgument argument) {
    List<String> values = switch (argument.name()) {
      case "language" -> Arrays.stream(Language.values()).map(Language::name).toList();
      case "focus" -> List.of("correctness", "naming", "performance", "security", "tests");
      default -> List.of();
    };
    String prefix = argument.value().toLowerCase(Locale.ROOT);
    return values.stream().filter(v -> v.toLowerCase(Locale.ROOT).startsWith(prefix)).toList();
  }
}
