package io.promptd.javasdk.springbeans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.javasdk.spring.PromptdBeanPrompts;
import io.promptd.javasdk.springmistakes.MistakesApplication;
import io.promptd.mcp.client.ClientOptions;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.PromptDefinition;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application with Spring AI's MCP server starter (stdio) and this module on its
 * class path, its prompts written with Spring AI's {@code @McpPrompt}, {@code @McpArg} and
 * {@code @McpComplete} (and one with promptd's {@code @PromptMethod}), and no promptd property:
 * promptd's client (and the official SDK's) sees each prompt once, with promptd's argument rules,
 * promptd's refusals and the bean's completion; {@code promptd.prompts.beans=false} leaves them to
 * Spring AI; a bean with mistakes stops the application, naming each.
 */
class SpringAiPromptsTest {
  private static final InputStream STDIN = System.in;

  /**
   * The in-process applications get an empty standard input: Spring AI's stdio transport reads it
   * on a thread of its own that would otherwise keep the test JVM alive after the last test.
   */
  @BeforeAll
  static void noStandardInput() {
    System.setIn(new ByteArrayInputStream(new byte[0]));
  }

  @AfterAll
  static void standardInputBack() {
    System.setIn(STDIN);
  }

  @Test
  void springAiPromptsAreServedWithPromptdsChecks() throws Exception {
    try (McpClient client = connect(List.of())) {
      List<Prompt> prompts = client.listPrompts();
      // Once each: Spring AI registers none of them itself (the SDK lists them in its own order).
      assertThat(prompts)
          .extracting(Prompt::name)
          .containsExactlyInAnyOrder("greet", "plan", "review", "summary");
      Prompt review =
          prompts.stream().filter(p -> p.name().equals("review")).findFirst().orElseThrow();
      assertThat(review.title()).isEqualTo("Code review");
      assertThat(review.arguments())
          .extracting(PromptArgument::name, PromptArgument::required)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("code", true),
              org.assertj.core.groups.Tuple.tuple("language", true),
              org.assertj.core.groups.Tuple.tuple("lines", false));
      assertThat(review.meta()).isNotNull();
      assertThat(JsonCodec.write(review.meta()))
          .isEqualTo("{\"io.promptd/arguments\":{\"language\":{\"enum\":[\"JAVA\",\"GO\"]},"
              + "\"lines\":{\"type\":\"integer\"}}}");

      GetPromptResult rendered =
          client.getPrompt("review", Map.of("code", "x()", "language", "go", "lines", "3"));
      assertThat(rendered.messages().getFirst().role()).isEqualTo(Role.ASSISTANT);
      assertThat(((TextContent) rendered.messages().getFirst().content()).text())
          .isEqualTo("Review this GO code in 3 lines:\nx()");
      GetPromptResult greeting = client.getPrompt("greet", Map.of("name", "Ada"));
      assertThat(greeting.description()).isEqualTo("A greeting");
      assertThat(greeting.messages().getFirst().role()).isEqualTo(Role.USER);
      assertThat(((TextContent) greeting.messages().getFirst().content()).text())
          .isEqualTo("Hello, Ada!");
      assertThat(((TextContent) client
                  .getPrompt("summary", Map.of("text", "t"))
                  .messages()
                  .getFirst()
                  .content())
              .text())
          .isEqualTo("Summarise:\nt");

      assertThatThrownBy(() -> client.getPrompt("review", Map.of("language", "java")))
          .isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.getMessage()).contains("missing required argument 'code'");
          });
      assertThatThrownBy(() -> client.getPrompt("review", Map.of("code", "x", "language", "cobol")))
          .isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.getMessage())
                .contains("argument 'language' must be one of JAVA, GO")
                .doesNotContain("Exception");
          });
      assertThatThrownBy(() ->
              client.getPrompt("review", Map.of("code", "x", "language", "java", "lines", "many")))
          .isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.getMessage()).contains("argument 'lines' must be a whole number");
          });
      assertThatThrownBy(() ->
              client.getPrompt("review", Map.of("code", "x", "language", "java", "colour", "red")))
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.getMessage()).contains("'colour'"));

      // Strings are assistant messages; a Map and the GetPromptRequest are given as Spring AI gives
      // them.
      GetPromptResult plan = client.getPrompt("plan", Map.of("tone", "formal", "brief", "TRUE"));
      assertThat(plan.messages())
          .extracting(m -> m.role(), m -> ((TextContent) m.content()).text())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(Role.ASSISTANT, "plan in a FORMAL tone, briefly"),
              org.assertj.core.groups.Tuple.tuple(
                  Role.ASSISTANT, "given {brief=TRUE, tone=formal}"));
      assertThatThrownBy(() -> client.getPrompt("plan", Map.of("tone", "formal", "brief", "yes")))
          .isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.getMessage()).contains("argument 'brief' must be true or false");
          });
      // Without an @McpComplete method, an enum argument completes from its constants.
      assertThat(client.complete("plan", "tone", "fr", Map.of()).values())
          .containsExactly("FRIENDLY");
      assertThat(client.complete("review", "code", "Ma", Map.of()).values())
          .containsExactly("Main.java");
      assertThat(client.complete("review", "language", "g", Map.of()).values()).isEmpty();
    }
  }

  @Test
  void theOfficialSdkClientSeesTheSameChecks() {
    List<String> command = command(List.of());
    McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(new StdioClientTransport(
            ServerParameters.builder(command.getFirst())
                .args(command.subList(1, command.size()))
                .build(),
            McpJsonDefaults.getMapper()))
        .requestTimeout(Duration.ofSeconds(60))
        .initializationTimeout(Duration.ofSeconds(60))
        .build();
    try {
      client.initialize();
      McpSchema.Prompt review = client.listPrompts().prompts().stream()
          .filter(p -> p.name().equals("review"))
          .findFirst()
          .orElseThrow();
      assertThat(review.meta()).containsKey("io.promptd/arguments");
      McpSchema.GetPromptResult result = client.getPrompt(new McpSchema.GetPromptRequest(
          "review", Map.of("code", "y()", "language", "JAVA"), null));
      assertThat(((McpSchema.TextContent) result.messages().getFirst().content()).text())
          .isEqualTo("Review this JAVA code:\ny()");
      assertThatThrownBy(() -> client.getPrompt(
              new McpSchema.GetPromptRequest("review", Map.of("code", "y()"), null)))
          .isInstanceOfSatisfying(McpError.class, e -> {
            assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
            assertThat(e.getMessage()).contains("missing required argument 'language'");
          });
      assertThat(client
              .completeCompletion(new McpSchema.CompleteRequest(
                  new McpSchema.PromptReference("review"),
                  new McpSchema.CompleteRequest.CompleteArgument("code", "S"),
                  null,
                  null))
              .completion()
              .values())
          .containsExactly("Server.java");
    } finally {
      client.closeGracefully();
    }
  }

  @Test
  void formFirstListsTheBeansArgumentsAsNotRequired() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
            BeanPromptsApplication.class)
        .web(WebApplicationType.NONE)
        .properties(
            "spring.ai.mcp.server.stdio=false",
            "spring.main.banner-mode=off",
            "spring.ai.mcp.server.name=in-process",
            "promptd.prompts.form-first=true")
        .run()) {
      List<?> specs = context.getBean("promptdBeanPromptSpecifications", List.class);
      io.modelcontextprotocol.spec.McpSchema.Prompt review = specs.stream()
          .map(s -> ((io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification) s)
              .prompt())
          .filter(p -> p.name().equals("review"))
          .findFirst()
          .orElseThrow();
      assertThat(review.arguments())
          .extracting(a -> a.name() + "=" + a.required())
          .containsExactly("code=false", "language=false", "lines=false");
    }
  }

  @Test
  void springAiRegistersNoneOfThePromptsItself() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
            BeanPromptsApplication.class)
        .web(WebApplicationType.NONE)
        .properties(
            "spring.ai.mcp.server.stdio=false",
            "spring.main.banner-mode=off",
            "spring.ai.mcp.server.name=in-process")
        .run()) {
      // Spring AI's own specifications from the annotated beans: none for prompts and completions.
      assertThat((List<?>) context.getBean("promptSpecs", List.class)).isEmpty();
      assertThat((List<?>) context.getBean("completionSpecs", List.class)).isEmpty();
      assertThat(context.getBean(PromptdBeanPrompts.class).catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("greet", "plan", "review", "summary");
    }
  }

  @Test
  void theOffSwitchLeavesThePromptsToSpringAi() throws Exception {
    try (McpClient client = connect(List.of("--promptd.prompts.beans=false"))) {
      List<Prompt> prompts = client.listPrompts();
      // Spring AI serves its own annotations; promptd's @PromptMethod beans are not served.
      assertThat(prompts)
          .extracting(Prompt::name)
          .containsExactlyInAnyOrder("greet", "plan", "review");
      assertThat(prompts).allSatisfy(p -> assertThat(p.meta()).isNull());
    }
  }

  @Test
  void everyMistakeIsReportedAtStartUp() {
    SpringApplicationBuilder app = new SpringApplicationBuilder(MistakesApplication.class)
        .web(WebApplicationType.NONE)
        .properties(
            "spring.ai.mcp.server.stdio=false",
            "spring.main.banner-mode=off",
            "spring.ai.mcp.server.name=mistakes");
    assertThatThrownBy(app::run).satisfies(e -> {
      String message = promptdMessage(e);
      String type = "io.promptd.javasdk.springmistakes.BrokenPrompts#";
      assertThat(message)
          .startsWith("promptd: 5 mistakes in the application's prompt methods:")
          .contains(type + "at: argument 'when' is a java.time.Instant")
          .contains(type + "count: argument 'n' is a primitive int, which cannot be absent")
          .contains(type + "second: prompt 'twice' is " + type + "first too")
          .contains(type + "number: an @McpPrompt method returns GetPromptResult")
          .contains(type + "nowhere: @McpComplete names prompt 'nowhere'");
    });
  }

  @Test
  void aPromptMethodAndAPromptFileOfOneNameStopTheApplication(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("review.prompt.md"), "---\ndescription: A file\n---\nReview.\n");
    SpringApplicationBuilder app = new SpringApplicationBuilder(BeanPromptsApplication.class)
        .web(WebApplicationType.NONE)
        .properties(
            "spring.ai.mcp.server.stdio=false",
            "spring.main.banner-mode=off",
            "promptd.prompts.watch=false",
            "promptd.prompts.dirs=" + dir);
    assertThatThrownBy(app::run)
        .satisfies(e -> assertThat(promptdMessage(e))
            .isEqualTo("promptd: prompts [review] are both prompt methods and files in"
                + " promptd.prompts.dirs; rename one of each"));
  }

  /** The message of promptd's exception among {@code e}'s causes. */
  private static String promptdMessage(Throwable e) {
    List<String> seen = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IllegalStateException && t.getMessage().startsWith("promptd:")) {
        return t.getMessage();
      }
      seen.add(String.valueOf(t));
    }
    throw new AssertionError("no promptd mistake report among " + seen);
  }

  private static McpClient connect(List<String> extra) throws Exception {
    return McpClient.connectStdio(
        command(extra), ClientOptions.defaults().withTimeout(Duration.ofSeconds(60)));
  }

  /** The application over stdio, with {@code extra} arguments. */
  private static List<String> command(List<String> extra) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        BeanPromptsApplication.class.getName(),
        "--spring.ai.mcp.server.stdio=true",
        "--spring.main.banner-mode=off",
        "--spring.main.web-application-type=none",
        "--logging.pattern.console=",
        "--spring.ai.mcp.server.name=spring-ai"));
    command.addAll(extra);
    return command;
  }
}
