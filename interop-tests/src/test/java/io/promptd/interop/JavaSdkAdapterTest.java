package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.testing.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * promptd's prompt library on a server built with the official MCP Java SDK, through the
 * promptd-java-sdk adapter ({@link SdkAdapterServer}, the SDK's stdio transport): the official TS
 * SDK v1 client lists, renders with arguments, gets -32602 for an unknown prompt and hears
 * list_changed after a prompt file is added; promptd's client completes an argument, gets an image
 * through the SDK's content types and sees an edited description and a deleted prompt; it lists and
 * reads the library's skill files as resources (the SDK has no Skills extension) and sees one
 * added.
 */
class JavaSdkAdapterTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void node() {
    Peers.requireNode();
  }

  private List<String> server(Path library) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        SdkAdapterServer.class.getName(),
        library.toString());
  }

  @Test
  void theTypeScriptClientUsesTheLibraryThroughTheSdkServer() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    String report = ServerCellsTest.runNode(new ArrayList<>(List.of(
        "ts-client.mjs",
        "--sdk",
        "v1",
        "--stdio",
        PromptdServer.shell(server(library)),
        "--get",
        "test_prompt_with_arguments",
        "--arg",
        "arg1=testValue1",
        "--arg",
        "arg2=testValue2",
        "--expect",
        "testValue1",
        "--edit-file",
        library.resolve("added_by_interop.prompt.md").toString())));
    assertThat(report).contains("\"ok\":true").contains("\"listChanged\":\"ok\"");
    Matrix.record(
        "TS SDK v1 client → Java SDK 2.1.0 server + promptd-java-sdk",
        "stdio",
        "legacy",
        "list, get+args, -32602, list_changed after a file edit");
  }

  @Test
  void promptdsClientCompletesRendersAndSeesEditsThroughTheSdkServer() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    Files.writeString(
        library.resolve("lang.prompt.md"),
        "---\ndescription: Pick a language\narguments:\n"
            + "  - name: language\n    required: true\n    enum: [French, Finnish, German]\n---\nIn {{language}}.\n");
    try (McpClient client = McpClient.connectStdio(
        server(library), ClientOptions.defaults().withTimeout(Duration.ofSeconds(30)))) {
      assertThat(client.modern()).isFalse();
      assertThat(client.listPrompts())
          .extracting(Prompt::name)
          .contains("lang", "test_prompt_with_image");
      assertThat(client.complete("lang", "language", "F", Map.of()).values())
          .containsExactly("French", "Finnish");
      assertThat(client
              .getPrompt("lang", Map.of("language", "German"))
              .messages()
              .getFirst()
              .content()
              .toString())
          .contains("In German.");
      assertThatThrownBy(() -> client.getPrompt("lang", Map.of("language", "Klingon")))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602))
          .hasMessageContaining("Klingon");
      assertThatThrownBy(() -> client.getPrompt("lang", Map.of()))
          .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602))
          .hasMessageContaining("missing required argument 'language'");
      assertThat(client
              .getPrompt("test_prompt_with_image", Map.of())
              .messages()
              .getFirst()
              .content())
          .isInstanceOfSatisfying(
              ImageContent.class, i -> assertThat(i.mimeType()).isEqualTo("image/png"));

      // Each list_changed is sent after the SDK server changed its list: after each one, look at
      // the list again, until both changes show (deadline 20 s).
      BlockingQueue<Boolean> changes = new LinkedBlockingQueue<>();
      AutoCloseable watch = client.watchPrompts(() -> changes.add(true));
      List<Prompt> now;
      try {
        Files.writeString(
            library.resolve("lang.prompt.md"),
            "---\ndescription: Choose a language\narguments:\n"
                + "  - name: language\n    required: true\n---\nIn {{language}}.\n");
        Files.delete(library.resolve("test_simple_prompt.prompt.md"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        do {
          assertThat(changes.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
              .as("list_changed for the edit and the deletion")
              .isNotNull();
          now = client.listPrompts();
        } while (now.stream().anyMatch(p -> p.name().equals("test_simple_prompt"))
            || now.stream().noneMatch(p -> "Choose a language".equals(p.description())));
      } finally {
        watch.close();
      }
      assertThat(now).extracting(Prompt::name).doesNotContain("test_simple_prompt");
      assertThat(now)
          .filteredOn(p -> p.name().equals("lang"))
          .extracting(Prompt::description)
          .containsExactly("Choose a language");
    }
    Matrix.record(
        "promptd client → Java SDK 2.1.0 server + promptd-java-sdk",
        "stdio",
        "legacy 2025-11-25",
        "list, completion, get+args, -32602 (unknown value, missing argument), image content, edit and delete seen");
  }

  /**
   * The official Java SDK client with an elicitation handler against the SDK server: a prompt asked
   * for without an argument it requires gets promptd's form through the SDK's
   * {@code elicitation/create}, and renders with the answer; so does a prompt added after the
   * server started; a declined form is promptd's -32602.
   */
  @Test
  void theSdkServerAsksForMissingArgumentsInPromptdsForm() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    List<String> command = server(library);
    List<String> messages = new CopyOnWriteArrayList<>();
    AtomicReference<McpSchema.ElicitResult.Action> action =
        new AtomicReference<>(McpSchema.ElicitResult.Action.ACCEPT);
    McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(new StdioClientTransport(
            ServerParameters.builder(command.getFirst())
                .args(command.subList(1, command.size()))
                .build(),
            McpJsonDefaults.getMapper()))
        .requestTimeout(Duration.ofSeconds(30))
        .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
        .elicitation(request -> {
          messages.add(request.message());
          if (action.get() != McpSchema.ElicitResult.Action.ACCEPT) {
            return new McpSchema.ElicitResult(action.get(), null);
          }
          Map<String, Object> content = new HashMap<>();
          @SuppressWarnings("unchecked")
          Map<String, Object> properties =
              (Map<String, Object>) request.requestedSchema().get("properties");
          properties.keySet().forEach(k -> content.put(k, "from-java-" + k));
          return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, content);
        })
        .build();
    try {
      client.initialize();
      String rendered = client
          .getPrompt(new McpSchema.GetPromptRequest(
              "test_prompt_with_arguments", Map.of("arg1", "given"), null))
          .messages()
          .toString();
      assertThat(rendered).contains("arg2='from-java-arg2'");
      assertThat(messages).singleElement().asString().contains("arg2");

      Files.writeString(
          library.resolve("later.prompt.md"),
          "---\ndescription: Added later\narguments:\n  - name: topic\n    required: true\n---\n"
              + "About {{topic}}.\n");
      Poll.until(
          Duration.ofSeconds(20),
          Duration.ofMillis(100),
          () -> "the prompt added later is listed",
          () -> client.listPrompts().prompts().stream().anyMatch(p -> p.name().equals("later")));
      assertThat(client
              .getPrompt(new McpSchema.GetPromptRequest("later", Map.of(), null))
              .messages()
              .toString())
          .contains("About from-java-topic.");
      assertThat(messages).hasSize(2);

      action.set(McpSchema.ElicitResult.Action.DECLINE);
      assertThatThrownBy(
              () -> client.getPrompt(new McpSchema.GetPromptRequest("later", Map.of(), null)))
          .isInstanceOfSatisfying(
              McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
      assertThat(messages).hasSize(3);
    } finally {
      client.closeGracefully();
    }
    Matrix.record(
        "Java SDK client (elicitation handler) → Java SDK server + promptd-java-sdk",
        "stdio",
        "legacy",
        "prompts/get without a required argument: promptd's form through the SDK's elicitation/create, answered"
            + " and rendered; a prompt added later asks too; a declined form is -32602");
  }

  @Test
  void promptdsClientReadsTheLibrarysSkillFilesAsResourcesThroughTheSdkServer() throws Exception {
    Path library = PromptdServer.fixtureCopy(dir.resolve("lib"));
    Path git = Files.createDirectories(library.resolve("skills/git/assets")).getParent();
    Files.writeString(
        git.resolve("SKILL.md"), "---\nname: git\ndescription: Git conventions.\n---\nRebase.\n");
    Files.write(
        git.resolve("assets/logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff});
    try (McpClient client = McpClient.connectStdio(
        server(library), ClientOptions.defaults().withTimeout(Duration.ofSeconds(30)))) {
      assertThat(skillFiles(client))
          .containsExactlyInAnyOrder(
              "skill://skills/git/SKILL.md", "skill://skills/git/assets/logo.png");
      for (String file : List.of("SKILL.md", "assets/logo.png")) {
        JsonObject contents = (JsonObject) client
            .call(
                "resources/read",
                JsonObject.builder().put("uri", "skill://skills/git/" + file).build())
            .array("contents")
            .orElseThrow()
            .elements()
            .getFirst();
        byte[] bytes = contents.has("blob")
            ? Base64.getDecoder().decode(contents.string("blob").orElseThrow())
            : contents.string("text").orElseThrow().getBytes(StandardCharsets.UTF_8);
        assertThat(bytes).as(file).isEqualTo(Files.readAllBytes(git.resolve(file)));
        assertThat(contents.has("blob")).as(file).isEqualTo(file.endsWith(".png"));
      }
      Files.writeString(git.resolve("notes.md"), "n\n");
      Poll.until(
          Duration.ofSeconds(20),
          Duration.ofMillis(100),
          () -> "skill://skills/git/notes.md among the resources",
          () -> skillFiles(client).contains("skill://skills/git/notes.md"));
    }
    Matrix.record(
        "promptd client → Java SDK 2.1.0 server + promptd-java-sdk",
        "stdio",
        "legacy 2025-11-25",
        "skill files as resources (no Skills extension in the SDK): listed, read as text and blob with the bytes on disk, an added file seen");
  }

  private static List<String> skillFiles(McpClient client) throws Exception {
    List<String> uris = new ArrayList<>();
    for (Json r : client
        .call("resources/list", JsonObject.EMPTY)
        .array("resources")
        .orElseThrow()
        .elements()) {
      String uri = ((JsonObject) r).string("uri").orElseThrow();
      if (uri.startsWith("skill://")) {
        uris.add(uri);
      }
    }
    return uris;
  }
}
