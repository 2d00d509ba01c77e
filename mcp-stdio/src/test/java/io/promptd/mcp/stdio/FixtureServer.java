package io.promptd.mcp.stdio;

import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real server process for the stdio tests, serving its prompts on this process's stdin and
 * stdout. {@code gate} answers only once {@code release} was called (or is cancelled), so that
 * tests order events without timing.
 */
public final class FixtureServer {
  private static final CountDownLatch GATE = new CountDownLatch(1);

  private FixtureServer() {}

  /** Serves until stdin ends; {@code args[0]} is the line limit in bytes. */
  public static void main(String[] args) throws Exception {
    PromptCatalog catalog = PromptCatalog.create();
    catalog.put(PromptDefinition.of(
        Prompt.of(
            "greet", "Greets someone", List.of(PromptArgument.required("name", "Who to greet"))),
        a -> List.of(PromptMessage.user("Hello, " + a.get("name") + "!"))));
    catalog.put(new PromptDefinition(
        Prompt.of("slow", "Takes a while", List.of()),
        a -> {
          Thread.sleep(400);
          return GetPromptResult.of("slow", List.of(PromptMessage.user("done")));
        },
        null));
    catalog.put(new PromptDefinition(
        Prompt.of("gate", "Answers once 'release' was called", List.of()),
        a -> {
          if (!GATE.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("nobody called 'release' within 60 s");
          }
          return GetPromptResult.of("gate", List.of(PromptMessage.user("through")));
        },
        null));
    catalog.put(PromptDefinition.of(Prompt.of("release", "Lets 'gate' answer", List.of()), a -> {
      GATE.countDown();
      return List.of(PromptMessage.user("released"));
    }));
    catalog.put(PromptDefinition.of(
        Prompt.of(
            "touch",
            "Adds a prompt named 'touched', so that clients see the list change",
            List.of()),
        a -> {
          catalog.put(PromptDefinition.of(
              Prompt.of("touched", "Added by touch", List.of()),
              b -> List.of(PromptMessage.user("touched"))));
          return List.of(PromptMessage.user("ok"));
        }));
    catalog.put(new PromptDefinition(
        Prompt.of(
            "quick",
            "Answered from memory",
            List.of(PromptArgument.optional("n", "A number to echo"))),
        new PromptRenderer() {
          @Override
          public GetPromptResult render(Map<String, String> a) {
            return GetPromptResult.of("quick", List.of(PromptMessage.user("n=" + a.get("n"))));
          }

          @Override
          public boolean mayBlock() {
            return false;
          }
        },
        null));
    McpServer server = McpServer.builder()
        .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
        .prompts(catalog)
        .build();
    StdioTransport.create(server, System.in, System.out, Integer.parseInt(args[0]))
        .run();
    server.close();
  }
}
