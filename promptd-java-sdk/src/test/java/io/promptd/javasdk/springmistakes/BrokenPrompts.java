package io.promptd.javasdk.springmistakes;

import java.time.Instant;
import java.util.List;
import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.stereotype.Component;

/** One mistake per method. */
@Component
public class BrokenPrompts {
  @McpPrompt(name = "at")
  public String at(@McpArg(name = "when", required = true) Instant when) {
    return "At " + when;
  }

  @McpPrompt(name = "count")
  public String count(@McpArg(name = "n") int n) {
    return "Count " + n;
  }

  @McpPrompt(name = "twice")
  public String first() {
    return "one";
  }

  @McpPrompt(name = "twice")
  public String second() {
    return "two";
  }

  @McpPrompt(name = "number")
  public int number() {
    return 1;
  }

  @McpComplete(prompt = "nowhere")
  public List<String> nowhere(String prefix) {
    return List.of(prefix);
  }
}
