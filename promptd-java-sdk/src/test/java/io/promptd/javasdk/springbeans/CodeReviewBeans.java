package io.promptd.javasdk.springbeans;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.stereotype.Component;

/** Spring AI prompts as an application writes them: a package-private component. */
@Component
class CodeReviewBeans {
  enum Language {
    JAVA,
    GO
  }

  @McpPrompt(name = "review", title = "Code review", description = "Reviews code")
  public String review(
      @McpArg(name = "code", description = "The code to review", required = true) String code,
      @McpArg(name = "language", required = true) Language language,
      @McpArg(name = "lines") Integer lines) {
    return "Review this " + language + " code" + (lines == null ? "" : " in " + lines + " lines")
        + ":\n" + code;
  }

  @McpComplete(prompt = "review")
  public List<String> files(McpSchema.CompleteRequest.CompleteArgument argument) {
    if (!argument.name().equals("code")) {
      return List.of();
    }
    return List.of("Main.java", "Server.java").stream()
        .filter(f -> f.startsWith(argument.value()))
        .toList();
  }

  enum Tone {
    FORMAL,
    FRIENDLY
  }

  @McpPrompt(name = "plan")
  public List<String> plan(
      @McpArg(name = "tone", required = true) Tone tone,
      @McpArg(name = "brief") Boolean brief,
      Map<String, Object> all,
      McpSchema.GetPromptRequest request) {
    return List.of(
        request.name() + " in a " + tone + " tone"
            + (Boolean.TRUE.equals(brief) ? ", briefly" : ""),
        "given " + new TreeMap<>(all));
  }

  @McpPrompt(name = "greet", description = "Greets someone")
  public McpSchema.GetPromptResult greet(@McpArg(name = "name", required = true) String name) {
    return new McpSchema.GetPromptResult(
        "A greeting",
        List.of(new McpSchema.PromptMessage(
            McpSchema.Role.USER,
            McpSchema.TextContent.builder("Hello, " + name + "!").build())),
        null);
  }
}
