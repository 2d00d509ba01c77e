package io.promptd.javasdk.springbeans;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring AI MCP server application whose prompts are its beans' {@code @McpPrompt} and
 * {@code @PromptMethod} methods, written for Spring AI alone.
 */
@SpringBootApplication
public class BeanPromptsApplication {
  public static void main(String[] args) {
    SpringApplication.run(BeanPromptsApplication.class, args);
  }
}
