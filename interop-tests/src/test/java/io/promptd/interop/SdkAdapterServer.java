package io.promptd.interop;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.javasdk.SdkSkills;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A server on the official MCP Java SDK (its stdio transport) that serves a promptd library folder
 * through the adapter, as a Java SDK user would write it: the library watched, its prompts and
 * completions handed to the SDK's builder, its skills' files as resources, the running server kept
 * in sync. {@code java -cp … io.promptd.interop.SdkAdapterServer DIR}.
 */
public final class SdkAdapterServer {
  private SdkAdapterServer() {}

  public static void main(String[] args) throws Exception {
    Library library = Library.open(
        LibrarySource.folders(List.of(Path.of(args[0]))),
        LibraryOptions.defaults().withCacheDirectory(null).withDebounce(Duration.ofMillis(25)));
    library.watch();
    SdkPrompts prompts = SdkPrompts.of(library.catalog());
    SdkSkills skills = SdkSkills.of(library);
    McpSyncServer server = McpServer.sync(
            new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("promptd-java-sdk-interop", "1")
        .capabilities(McpSchema.ServerCapabilities.builder()
            .prompts(true)
            .completions()
            .resources(false, true)
            .build())
        .prompts(prompts.syncPrompts())
        .completions(prompts.syncCompletions())
        .resources(skills.syncResources())
        .build();
    try (AutoCloseable sync = prompts.keepInSync(server);
        AutoCloseable skillsSync = skills.keepInSync(server)) {
      new CountDownLatch(1).await(); // the SDK's transport serves until the client ends the process
    } finally {
      server.close();
      library.close();
    }
  }
}
