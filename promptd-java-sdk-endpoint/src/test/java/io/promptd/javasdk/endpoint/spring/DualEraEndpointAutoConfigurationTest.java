package io.promptd.javasdk.endpoint.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot servlet application (embedded Tomcat, port 0) with
 * {@code promptd.prompts.dirs} set serves the folder in both eras at {@code promptd.endpoint.path}:
 * the official Java SDK's legacy client and its 2026-07-28 client both render the folder's prompt
 * there.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DualEraEndpointAutoConfigurationTest {
  @TempDir
  Path dir;

  @Test
  void aPromptFolderIsServedInBothErasAtTheConfiguredPath() throws Exception {
    Files.writeString(
        dir.resolve("hello.prompt.md"),
        "---\ndescription: Says hello\narguments:\n  - name: who\n    required: true\n---\n"
            + "Hello, {{who}}\n");
    try (ConfigurableApplicationContext app = SpringApplication.run(
        EndpointTestApplication.class,
        "--server.port=0",
        "--server.address=127.0.0.1",
        "--promptd.prompts.dirs=" + dir,
        "--promptd.endpoint.path=/prompts")) {
      String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");

      McpSyncClient legacy = McpClient.sync(HttpClientStreamableHttpTransport.builder(base)
              .endpoint("/prompts")
              .build())
          .requestTimeout(Duration.ofSeconds(30))
          .build();
      try {
        assertThat(legacy.initialize().protocolVersion()).isEqualTo("2025-11-25");
        McpSchema.GetPromptResult got =
            legacy.getPrompt(new McpSchema.GetPromptRequest("hello", Map.of("who", "Ada"), null));
        assertThat(((McpSchema.TextContent) got.messages().getFirst().content()).text())
            .contains("Hello, Ada");
      } finally {
        legacy.closeGracefully();
      }

      io.modelcontextprotocol.modern.client.McpSyncClient modern =
          io.modelcontextprotocol.modern.client.McpClient.sync(
                  HttpClientMcpTransport.builder(base + "/prompts")
                      .jsonMapper(McpJsonDefaults.getMapper())
                      .build())
              .clientInfo(io.modelcontextprotocol.modern.McpSchema.Implementation.builder(
                      "spring-test", "1")
                  .build())
              .jsonMapper(McpJsonDefaults.getMapper())
              .build();
      assertThat(modern.prompts().list().prompts())
          .extracting(io.modelcontextprotocol.modern.McpSchema.Prompt::name)
          .containsExactly("hello");
      io.modelcontextprotocol.modern.McpSchema.GetPromptResult rendered =
          modern.prompt("hello").arguments(Map.of("who", "Grace")).get();
      assertThat(((io.modelcontextprotocol.modern.McpSchema.TextContent)
                  rendered.messages().getFirst().content())
              .text())
          .contains("Hello, Grace");
    }
  }
}
