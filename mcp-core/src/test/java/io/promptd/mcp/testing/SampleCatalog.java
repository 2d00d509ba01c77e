package io.promptd.mcp.testing;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed catalog for golden transcripts: together its prompts use every content type, annotations
 * (with {@code lastModified}), {@code _meta} at every level, titles and icons, completion with
 * context, and a renderer that fails. Sorted by name: {@code broken}, {@code code_review},
 * {@code media_tour}, {@code pick_city}, {@code simple}.
 */
public final class SampleCatalog {
  /** A 1x1 transparent PNG. */
  public static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

  /** A few bytes standing in for a WAV file. */
  public static final String WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

  private SampleCatalog() {}

  /**
   * A server over a fresh sample catalog, named and versioned so that transcripts do not change
   * between releases.
   */
  public static McpServer server() {
    return McpServer.builder()
        .serverInfo(new Implementation("promptd-test", "promptd test server", "9.9.9"))
        .instructions("Sample prompts for tests.")
        .prompts(catalog())
        .build();
  }

  /** A fresh catalog of the sample prompts. */
  public static PromptCatalog catalog() {
    return PromptCatalog.of(List.of(broken(), codeReview(), mediaTour(), pickCity(), simple()));
  }

  static PromptDefinition simple() {
    return PromptDefinition.of(
        Prompt.of("simple", null, List.of()), args -> List.of(PromptMessage.user("Hello!")));
  }

  static PromptDefinition broken() {
    return new PromptDefinition(
        Prompt.of("broken", "Always fails to render", List.of()),
        args -> {
          throw new IllegalStateException("cannot read /srv/secret/template.txt");
        },
        null);
  }

  static PromptDefinition codeReview() {
    Prompt prompt = new Prompt(
        "code_review",
        "Request Code Review",
        "Asks the model to review code",
        List.of(
            new PromptArgument("language", "Language", "The programming language", true),
            PromptArgument.required("code", "The code to review"),
            new PromptArgument("focus", "Focus", "What to look at", false)),
        List.of(
            new Icon("https://example.com/review.png", "image/png", List.of("48x48"), "light"),
            new Icon("data:image/svg+xml;base64,PHN2Zy8+", "image/svg+xml", List.of("any"), null)),
        JsonObject.builder().put("com.example/category", "development").build());
    return new PromptDefinition(
        prompt,
        args -> {
          String focus = args.getOrDefault("focus", "everything");
          String text = "Review this " + args.get("language") + " code, focusing on " + focus
              + ":\n" + args.get("code");
          TextContent content = new TextContent(
              text,
              new Annotations(List.of(Role.USER, Role.ASSISTANT), 0.8, "2025-01-12T15:00:58Z"),
              JsonObject.builder().put("com.example/origin", "template").build());
          return new GetPromptResult(
              "Code review for " + args.get("language"),
              List.of(new PromptMessage(Role.USER, content)),
              JsonObject.builder().put("com.example/rendered", true).build());
        },
        (argument, value, context) -> switch (argument) {
          case "language" ->
            Completion.of(
                startingWith(List.of("go", "java", "javascript", "kotlin", "python"), value));
          case "focus" ->
            Completion.of(startingWith(
                context.getOrDefault("language", "").equals("java")
                    ? List.of("generics", "null safety", "streams")
                    : List.of("naming", "performance", "security"),
                value));
          default -> Completion.EMPTY;
        });
  }

  static PromptDefinition mediaTour() {
    Annotations forUser = new Annotations(List.of(Role.USER), 0.5, "2025-05-01T08:30:00Z");
    JsonObject meta = JsonObject.builder().put("com.example/source", "fixture").build();
    Prompt prompt =
        new Prompt("media_tour", "Media Tour", "Every kind of content", List.of(), List.of(), null);
    return new PromptDefinition(
        prompt,
        args -> new GetPromptResult(
            null,
            List.of(
                new PromptMessage(Role.USER, new TextContent("Look at these.", null, null)),
                new PromptMessage(Role.USER, new ImageContent(PNG, "image/png", forUser, meta)),
                new PromptMessage(
                    Role.USER,
                    new AudioContent(
                        WAV, "audio/wav", new Annotations(List.of(), 0.25, null), meta)),
                new PromptMessage(
                    Role.USER,
                    new EmbeddedResource(
                        new TextResourceContents(
                            "file:///project/README.md", "text/markdown", "# Project", meta),
                        null,
                        null)),
                new PromptMessage(
                    Role.ASSISTANT,
                    new EmbeddedResource(
                        new BlobResourceContents(
                            "file:///project/logo.png", "image/png", PNG, null),
                        forUser,
                        meta)),
                new PromptMessage(
                    Role.ASSISTANT,
                    new ResourceLink(
                        "file:///project/src/main.rs",
                        "main.rs",
                        "Main entry point",
                        "The program's entry point",
                        "text/x-rust",
                        1024L,
                        new Annotations(List.of(Role.ASSISTANT), null, "2025-05-02T09:00:00Z"),
                        meta)),
                new PromptMessage(
                    Role.USER,
                    new ResourceLink(
                        "file:///project/NOTES.txt",
                        "NOTES.txt",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null))),
            null),
        null);
  }

  static PromptDefinition pickCity() {
    List<String> cities = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      cities.add(String.format("city-%03d", i));
    }
    Prompt prompt = Prompt.of(
        "pick_city", "Plans a trip", List.of(PromptArgument.required("city", "Where to")));
    return new PromptDefinition(
        prompt,
        args -> GetPromptResult.of(
            null, List.of(PromptMessage.user("Plan a trip to " + args.get("city") + "."))),
        (argument, value, context) -> Completion.of(startingWith(cities, value)));
  }

  private static List<String> startingWith(List<String> values, String prefix) {
    return values.stream().filter(v -> v.startsWith(prefix)).toList();
  }
}
