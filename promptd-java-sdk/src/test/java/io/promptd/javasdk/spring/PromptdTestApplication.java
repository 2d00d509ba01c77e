package io.promptd.javasdk.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring AI MCP server application with nothing of its own: its prompts come from
 * promptd.prompts.dirs.
 */
@SpringBootApplication
public class PromptdTestApplication {
  public static void main(String[] args) {
    SpringApplication.run(PromptdTestApplication.class, args);
  }
}
