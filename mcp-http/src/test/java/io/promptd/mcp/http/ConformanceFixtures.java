package io.promptd.mcp.http;

import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.ResourceProvider;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prompts and resources the official conformance suite (0.1.16) expects, registered
 * programmatically so that the transport can be checked without the prompt library: start
 * {@link ConformanceServer}, then run {@code bin/conformance} with {@code CONFORMANCE_URL} set to
 * the address it prints. The same fixtures as files are {@code fixtures/conformance/}, which
 * {@code bin/conformance} serves by default.
 */
final class ConformanceFixtures {
  /** A 1x1 transparent PNG. */
  static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

  private ConformanceFixtures() {}

  static McpServer server() {
    // The conformance fixtures stand for promptd's own server, and call themselves so.
    return McpServer.builder()
        .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
        .prompts(prompts())
        .resources(new Resources())
        .build();
  }

  static PromptCatalog prompts() {
    PromptCatalog catalog = PromptCatalog.create();
    catalog.put(PromptDefinition.of(
        Prompt.of("test_simple_prompt", "A simple prompt without arguments", List.of()),
        args -> List.of(PromptMessage.user("This is a simple prompt for testing."))));
    Prompt withArgs = Prompt.of(
        "test_prompt_with_arguments",
        "A prompt with required arguments",
        List.of(
            PromptArgument.required("arg1", "First test argument"),
            PromptArgument.required("arg2", "Second test argument")));
    catalog.put(new PromptDefinition(
        withArgs,
        args -> GetPromptResult.of(
            withArgs.description(),
            List.of(PromptMessage.user("Prompt with arguments: arg1='" + args.get("arg1")
                + "', arg2='" + args.get("arg2") + "'"))),
        (argument, value, context) -> Completion.of(List.of(value + "-one", value + "-two").stream()
            .filter(v -> !value.isEmpty())
            .toList())));
    catalog.put(PromptDefinition.of(
        Prompt.of(
            "test_prompt_with_embedded_resource",
            "A prompt that embeds a resource",
            List.of(PromptArgument.required("resourceUri", "URI of the resource to embed"))),
        args -> List.of(
            new PromptMessage(
                Role.USER,
                new EmbeddedResource(
                    new TextResourceContents(
                        args.get("resourceUri"),
                        "text/plain",
                        "Embedded resource content for testing.",
                        null),
                    null,
                    null)),
            PromptMessage.user("Please process the embedded resource above."))));
    catalog.put(PromptDefinition.of(
        Prompt.of("test_prompt_with_image", "A prompt that includes an image", List.of()),
        args -> List.of(
            new PromptMessage(Role.USER, new ImageContent(PNG, "image/png", null, null)),
            new PromptMessage(Role.USER, TextContent.of("Please analyze the image above.")))));
    return catalog;
  }

  /**
   * Static text, static binary, a watched resource and one template; {@link #touch} fakes a change.
   */
  static final class Resources implements ResourceProvider {
    private static final Pattern TEMPLATE = Pattern.compile("test://template/([^/]+)/data");
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    @Override
    public List<Resource> resources() {
      return List.of(
          Resource.of("test://static-text", "static-text", "A static text resource", "text/plain"),
          Resource.of(
              "test://static-binary",
              "static-binary",
              "A static binary resource (PNG)",
              "image/png"),
          Resource.of(
              "test://watched-resource",
              "watched-resource",
              "A resource that changes",
              "text/plain"));
    }

    @Override
    public List<ResourceTemplate> templates() {
      return List.of(ResourceTemplate.of(
          "test://template/{id}/data", "template-data", "Data for one id", "application/json"));
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      ResourceContents c = switch (uri) {
        case "test://static-text" ->
          new TextResourceContents(
              uri, "text/plain", "This is the content of the static text resource.", null);
        case "test://static-binary" -> new BlobResourceContents(uri, "image/png", PNG, null);
        case "test://watched-resource" ->
          new TextResourceContents(uri, "text/plain", "Watched content.", null);
        default -> {
          Matcher m = TEMPLATE.matcher(uri);
          yield m.matches()
              ? new TextResourceContents(
                  uri, "application/json", "{\"id\":\"" + m.group(1) + "\"}", null)
              : null;
        }
      };
      return c == null ? Optional.empty() : Optional.of(List.of(c));
    }

    @Override
    public AutoCloseable onChange(Listener listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    /** Announces that {@code uri} changed. */
    void touch(String uri) {
      listeners.forEach(l -> l.updated(uri));
    }

    /** Announces that the list changed. */
    void listChanged() {
      listeners.forEach(Listener::listChanged);
    }
  }
}
