package example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring AI MCP server (stdio) whose prompts, completions and skill files come from the folder that
 * {@code promptd.prompts.dirs} names, kept in sync with the files:
 * {@code java -jar target/promptd-spring-boot-example.jar --promptd.prompts.dirs=DIR}.
 */
@SpringBootApplication
public class PromptsApplication {
  public static void main(String[] args) {
    SpringApplication.run(PromptsApplication.class, args);
  }
}
