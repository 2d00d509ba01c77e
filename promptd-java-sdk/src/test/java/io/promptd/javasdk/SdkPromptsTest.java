package io.promptd.javasdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.annotations.AnnotatedPrompts;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.text.Normalizer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The adapter's answers and conversions, and a running SDK server kept in step with a changing
 * catalog.
 */
class SdkPromptsTest {
  private static PromptDefinition greet(String description) {
    return new PromptDefinition(
        Prompt.of(
            "greet",
            description,
            List.of(PromptArgument.required("who", "Whom"), PromptArgument.optional("tone", null))),
        args -> {
          if (args.get("who").equals("nobody")) {
            throw McpException.invalidParams("prompt 'greet': 'nobody' cannot be greeted");
          }
          if (args.get("who").equals("crash")) {
            throw new IllegalStateException("internal detail at com.example.Secret");
          }
          return GetPromptResult.of(
              "Greeting", List.of(PromptMessage.user("Hello, " + args.get("who"))));
        },
        (argument, value, context) -> Completion.of(List.of("Ada", "Alan", "Grace").stream()
            .filter(v -> v.startsWith(value))
            .toList()));
  }

  private static McpSchema.GetPromptRequest get(String name, Map<String, Object> args) {
    return new McpSchema.GetPromptRequest(name, args, null);
  }

  @Test
  void rendersWithPromptdsChecksAndErrorCodes() {
    SdkPrompts prompts = SdkPrompts.of(PromptCatalog.of(List.of(greet("Greets"))));
    McpSchema.GetPromptResult r = prompts.get(get("greet", Map.of("who", "Ada")));
    assertThat(r.description()).isEqualTo("Greeting");
    assertThat(r.messages()).singleElement().satisfies(m -> {
      assertThat(m.role()).isEqualTo(McpSchema.Role.USER);
      assertThat(((McpSchema.TextContent) m.content()).text()).isEqualTo("Hello, Ada");
    });
    assertThatThrownBy(() -> prompts.get(get("greet", Map.of())))
        .isInstanceOfSatisfying(
            McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602))
        .hasMessageContaining("missing required argument 'who'");
    assertThatThrownBy(() -> prompts.get(get("greet", Map.of("who", "Ada", "mood", "x"))))
        .hasMessageContaining("unknown argument 'mood'");
    assertThatThrownBy(() -> prompts.get(get("greet", Map.of("who", 42))))
        .hasMessageContaining("argument 'who' must be a string");
    assertThatThrownBy(() -> prompts.get(get("greet", Map.of("who", "nobody"))))
        .isInstanceOfSatisfying(
            McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602))
        .hasMessageContaining("cannot be greeted");
    assertThatThrownBy(() -> prompts.get(get("greet", Map.of("who", "crash"))))
        .isInstanceOfSatisfying(McpError.class, e -> {
          assertThat(e.getJsonRpcError().code()).isEqualTo(-32603);
          assertThat(e.getJsonRpcError().message())
              .doesNotContain("Secret")
              .doesNotContain("IllegalState");
        });
    assertThatThrownBy(() -> prompts.get(get("nope", Map.of())))
        .isInstanceOfSatisfying(
            McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602))
        .hasMessageContaining("Unknown prompt: 'nope'");
  }

  /** A client on macOS may send names in NFD; the prompt declares them in NFC. */
  @Test
  void namesInNfdMatchThePromptsNamesInNfc() {
    PromptDefinition guide = PromptDefinition.of(
        Prompt.of("ガイド", "d", List.of(PromptArgument.required("キーワード", null))),
        args -> List.of(PromptMessage.user("探す:" + args.get("キーワード"))));
    SdkPrompts prompts = SdkPrompts.of(PromptCatalog.of(List.of(guide)));
    String name = Normalizer.normalize("ガイド", Normalizer.Form.NFD);
    String argument = Normalizer.normalize("キーワード", Normalizer.Form.NFD);
    assertThat(argument).isNotEqualTo("キーワード");
    McpSchema.GetPromptResult r = prompts.get(get(name, Map.of(argument, "猫")));
    assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
        .isEqualTo("探す:猫");
  }

  @Test
  void completesFromThePromptsCompleter() {
    SdkPrompts prompts = SdkPrompts.of(PromptCatalog.of(List.of(greet("Greets"))));
    assertThat(prompts.syncCompletions())
        .extracting(c -> ((McpSchema.PromptReference) c.referenceKey()).name())
        .containsExactly("greet");
    McpSchema.CompleteResult r = prompts.complete(new McpSchema.CompleteRequest(
        new McpSchema.PromptReference("greet"),
        new McpSchema.CompleteRequest.CompleteArgument("who", "A"),
        null,
        null));
    assertThat(r.completion().values()).containsExactly("Ada", "Alan");
    assertThat(r.completion().hasMore()).isFalse();
    assertThatThrownBy(() -> prompts.complete(new McpSchema.CompleteRequest(
            new McpSchema.PromptReference("greet"),
            new McpSchema.CompleteRequest.CompleteArgument("mood", ""),
            null,
            null)))
        .hasMessageContaining("no argument 'mood'");
  }

  @Test
  void everyContentTypeAndItsFieldsCrossOver() {
    JsonObject meta = JsonObject.builder().put("k", "v").put("n", 3L).build();
    GetPromptResult rich = new GetPromptResult(
        "d",
        List.of(
            new PromptMessage(
                Role.ASSISTANT,
                new ImageContent(
                    "aGk=", "image/png", new Annotations(List.of(Role.USER), 0.5, null), meta)),
            new PromptMessage(
                Role.USER,
                new EmbeddedResource(
                    new TextResourceContents("promptd:///a.md", "text/markdown", "# A", null),
                    null,
                    null)),
            new PromptMessage(
                Role.USER,
                new ResourceLink(
                    "promptd:///b.md", "b", "B", "the b file", "text/markdown", 12L, null, null))),
        null);
    McpSchema.GetPromptResult r = SdkSchema.result(rich);
    assertThat(r.messages().get(0).role()).isEqualTo(McpSchema.Role.ASSISTANT);
    assertThat(r.messages().get(0).content())
        .isInstanceOfSatisfying(McpSchema.ImageContent.class, i -> {
          assertThat(i.data()).isEqualTo("aGk=");
          assertThat(i.mimeType()).isEqualTo("image/png");
          assertThat(i.annotations().audience()).containsExactly(McpSchema.Role.USER);
          assertThat(i.annotations().priority()).isEqualTo(0.5);
          assertThat(i.meta()).containsEntry("k", "v").containsEntry("n", 3L);
        });
    assertThat(r.messages().get(1).content())
        .isInstanceOfSatisfying(
            McpSchema.EmbeddedResource.class,
            e -> assertThat(e.resource())
                .isInstanceOfSatisfying(McpSchema.TextResourceContents.class, t -> {
                  assertThat(t.uri()).isEqualTo("promptd:///a.md");
                  assertThat(t.text()).isEqualTo("# A");
                }));
    assertThat(r.messages().get(2).content())
        .isInstanceOfSatisfying(McpSchema.ResourceLink.class, l -> {
          assertThat(l.uri()).isEqualTo("promptd:///b.md");
          assertThat(l.name()).isEqualTo("b");
          assertThat(l.title()).isEqualTo("B");
          assertThat(l.size()).isEqualTo(12L);
        });
  }

  @Test
  void promptsThatRequireScopesAreLeftOutUnlessAskedFor() {
    PromptCatalog catalog = PromptCatalog.of(List.of(
        greet("Greets"),
        PromptDefinition.of(
                Prompt.of("secret", "For admins", List.of()),
                args -> List.of(PromptMessage.user("s")))
            .withRequiredScopes(Set.of("admin"))));
    assertThat(SdkPrompts.of(catalog).syncPrompts())
        .extracting(p -> p.prompt().name())
        .containsExactly("greet");
    assertThatThrownBy(() -> SdkPrompts.of(catalog).get(get("secret", Map.of())))
        .hasMessageContaining("Unknown prompt: 'secret'");
    assertThat(SdkPrompts.of(catalog).includingScoped().syncPrompts())
        .extracting(p -> p.prompt().name())
        .containsExactly("greet", "secret");
  }

  /**
   * Form-first: every argument listed as not required, to every client (the SDK lists alike to
   * all); a request that leaves a required one out is still promptd's -32602 to a client without
   * forms.
   */
  @Test
  void formFirstListsEveryArgumentAsNotRequired() {
    PromptCatalog catalog = PromptCatalog.of(List.of(greet("Greets")));
    assertThat(SdkPrompts.of(catalog).syncPrompts().getFirst().prompt().arguments())
        .extracting(McpSchema.PromptArgument::required)
        .containsExactly(true, false);
    SdkPrompts formFirst = SdkPrompts.of(catalog).formFirst();
    assertThat(formFirst.syncPrompts().getFirst().prompt().arguments())
        .extracting(McpSchema.PromptArgument::name, McpSchema.PromptArgument::required)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("who", false),
            org.assertj.core.groups.Tuple.tuple("tone", false));
    assertThat(formFirst.asyncPrompts().getFirst().prompt().arguments())
        .extracting(McpSchema.PromptArgument::required)
        .containsOnly(false);
    assertThat(formFirst.includingScoped().syncPrompts().getFirst().prompt().arguments())
        .extracting(McpSchema.PromptArgument::required)
        .containsOnly(false);
    assertThat(formFirst.syncPrompts().getFirst().prompt().description()).isEqualTo("Greets");
    assertThatThrownBy(() -> formFirst.get(get("greet", Map.of())))
        .hasMessageContaining("missing required argument 'who'");
  }

  /** A prompt written as an annotated method, through the adapter. */
  public static final class CodePrompts {
    @io.promptd.mcp.annotations.PromptMethod(description = "Says hello")
    public String hello(
        @io.promptd.mcp.annotations.Arg(
                name = "who",
                values = {"Ada", "Alan"})
            String who) {
      return "Hello, " + who;
    }
  }

  @Test
  void annotatedPromptsCrossOverToo() {
    SdkPrompts prompts = SdkPrompts.of(PromptCatalog.of(AnnotatedPrompts.of(new CodePrompts())));
    assertThat(prompts.syncPrompts()).singleElement().satisfies(p -> {
      assertThat(p.prompt().name()).isEqualTo("hello");
      assertThat(p.prompt().arguments())
          .extracting(McpSchema.PromptArgument::name)
          .containsExactly("who");
    });
    assertThat(((McpSchema.TextContent) prompts
                .get(get("hello", Map.of("who", "ada")))
                .messages()
                .getFirst()
                .content())
            .text())
        .isEqualTo("Hello, Ada");
    assertThat(prompts
            .complete(new McpSchema.CompleteRequest(
                new McpSchema.PromptReference("hello"),
                new McpSchema.CompleteRequest.CompleteArgument("who", "Al"),
                null,
                null))
            .completion()
            .values())
        .containsExactly("Alan");
    assertThatThrownBy(() -> prompts.get(get("hello", Map.of("who", "Bob"))))
        .isInstanceOfSatisfying(
            McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602))
        .hasMessageContaining("must be one of Ada, Alan");
  }

  @Test
  void aRunningServerFollowsTheCatalog() throws Exception {
    PromptCatalog catalog = PromptCatalog.of(List.of(greet("Greets")));
    SdkPrompts prompts = SdkPrompts.of(catalog);
    try (PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer);
        PipedInputStream fromServer = new PipedInputStream();
        PipedOutputStream serverOut = new PipedOutputStream(fromServer)) {
      McpSyncServer server = McpServer.sync(
              new StdioServerTransportProvider(McpJsonDefaults.getMapper(), serverIn, serverOut))
          .capabilities(
              McpSchema.ServerCapabilities.builder().prompts(true).completions().build())
          .prompts(prompts.syncPrompts())
          .completions(prompts.syncCompletions())
          .build();
      try (AutoCloseable sync = prompts.keepInSync(server)) {
        assertThat(server.listPrompts())
            .extracting(McpSchema.Prompt::name)
            .containsExactly("greet");
        catalog.put(PromptDefinition.of(
            Prompt.of("bye", "Says bye", List.of()), args -> List.of(PromptMessage.user("Bye"))));
        catalog.put(greet("Greets warmly"));
        assertThat(server.listPrompts())
            .extracting(McpSchema.Prompt::name)
            .containsExactlyInAnyOrder("greet", "bye");
        assertThat(server.listPrompts())
            .filteredOn(p -> p.name().equals("greet"))
            .extracting(McpSchema.Prompt::description)
            .containsExactly("Greets warmly");
        catalog.remove("greet");
        assertThat(server.listPrompts()).extracting(McpSchema.Prompt::name).containsExactly("bye");
      } finally {
        server.close();
      }
    }
  }
}
