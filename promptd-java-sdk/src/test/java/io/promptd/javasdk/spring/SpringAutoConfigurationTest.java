package io.promptd.javasdk.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spring Boot application with Spring AI's MCP server starter (stdio) and this module on its
 * class path, given one property, {@code promptd.prompts.dirs}: promptd's client lists and renders
 * the folder's prompts, completes an argument, and sees an added file as a list change; it lists
 * and reads the folder's skill files as resources and sees a skill file added.
 */
class SpringAutoConfigurationTest {
  @TempDir
  Path dir;

  @Test
  void onePropertyServesAPromptFolder() throws Exception {
    Files.writeString(
        dir.resolve("review.prompt.md"),
        "---\ndescription: Reviews code\narguments:\n"
            + "  - name: language\n    required: true\n    enum: [java, go]\n---\nReview this {{language}} code.\n");
    String skillMd = "---\nname: git\ndescription: Git conventions.\n---\nRebase.\n";
    Files.createDirectories(dir.resolve("git/assets"));
    Files.writeString(dir.resolve("git/SKILL.md"), skillMd);
    byte[] logo = {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff};
    Files.write(dir.resolve("git/assets/logo.png"), logo);
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        PromptdTestApplication.class.getName(),
        "--promptd.prompts.dirs=" + dir,
        "--spring.ai.mcp.server.stdio=true",
        "--spring.main.banner-mode=off",
        "--spring.main.web-application-type=none",
        "--logging.pattern.console=",
        "--spring.ai.mcp.server.name=spring-ai");
    try (McpClient client = McpClient.connectStdio(
        command, ClientOptions.defaults().withTimeout(Duration.ofSeconds(60)))) {
      assertThat(client.modern()).isFalse();
      // The folder's skill is a prompt too: the official SDK has no Skills extension.
      assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("git", "review");
      assertThat(((TextContent) client
                  .getPrompt("review", Map.of("language", "go"))
                  .messages()
                  .getFirst()
                  .content())
              .text())
          .isEqualTo("Review this go code.");
      assertThatThrownBy(() -> client.getPrompt("review", Map.of("language", "cobol")))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602));
      assertThat(client.complete("review", "language", "j", Map.of()).values())
          .containsExactly("java");
      CountDownLatch changed = new CountDownLatch(1);
      try (AutoCloseable watch = client.watchPrompts(changed::countDown)) {
        Files.writeString(dir.resolve("added.prompt.md"), "---\ndescription: Added\n---\nNew.\n");
        assertThat(changed.await(30, TimeUnit.SECONDS))
            .as("list_changed after a file was added")
            .isTrue();
      }
      assertThat(client.listPrompts()).extracting(Prompt::name).contains("added", "review");

      // The skill's files are resources: text or blob, the bytes as written.
      assertThat(resources(client))
          .containsExactlyInAnyOrder("skill://git/SKILL.md", "skill://git/assets/logo.png");
      assertThat(read(client, "skill://git/SKILL.md").string("text")).contains(skillMd);
      assertThat(Base64.getDecoder()
              .decode(read(client, "skill://git/assets/logo.png").string("blob").orElseThrow()))
          .isEqualTo(logo);
      Files.writeString(dir.resolve("git/notes.md"), "n\n");
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(100),
          () -> "skill://git/notes.md among the resources",
          () -> resources(client).contains("skill://git/notes.md"));
    }
  }

  private static List<String> resources(McpClient client) throws Exception {
    List<String> uris = new ArrayList<>();
    for (Json r : client
        .call("resources/list", JsonObject.EMPTY)
        .array("resources")
        .orElseThrow()
        .elements()) {
      uris.add(((JsonObject) r).string("uri").orElseThrow());
    }
    return uris;
  }

  private static JsonObject read(McpClient client, String uri) throws Exception {
    return (JsonObject) client
        .call("resources/read", JsonObject.builder().put("uri", uri).build())
        .array("contents")
        .orElseThrow()
        .elements()
        .getFirst();
  }
}
