package io.promptd.javasdk.springbeans;

import io.promptd.mcp.annotations.Arg;
import io.promptd.mcp.annotations.PromptMethod;
import org.springframework.stereotype.Component;

/** promptd's own annotations on a bean, beside Spring AI's. */
@Component
public class SummaryPrompts {
  @PromptMethod(name = "summary", description = "Summarises text")
  public String summary(@Arg(name = "text") String text) {
    return "Summarise:\n" + text;
  }
}
