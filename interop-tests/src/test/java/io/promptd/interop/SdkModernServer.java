package io.promptd.interop;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import io.promptd.javasdk.modern.SdkModernPrompts;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;

/**
 * A server on the official MCP Java SDK 2.2's 2026-07-28 stack (its stdio transport) that serves a
 * promptd library folder through promptd-java-sdk-modern, as docs/java.md shows: the library
 * watched, its prompts as the SDK's prompts feature and change publisher, forms sealed by the SDK's
 * request-state codec. {@code java -cp … io.promptd.interop.SdkModernServer DIR [PAGE_SIZE]}.
 */
public final class SdkModernServer {
  private SdkModernServer() {}

  public static void main(String[] args) throws Exception {
    Library library = Library.open(
        LibrarySource.folders(List.of(Path.of(args[0]))),
        LibraryOptions.defaults().withCacheDirectory(null).withDebounce(Duration.ofMillis(25)));
    library.watch();
    SdkModernPrompts prompts = SdkModernPrompts.of(library.catalog());
    if (args.length > 1) {
      prompts = prompts.pageSize(Integer.parseInt(args[1]));
    }
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    McpJsonMapper json = McpJsonDefaults.getMapper();
    McpServer server = McpServer.builder()
        .serverInfo(McpSchema.Implementation.builder("promptd-java-sdk-modern-interop", "1")
            .build())
        .jsonMapper(json)
        .feature(prompts.feature(json))
        .subscriptions(prompts.changes())
        .requestStateCodec(
            HmacRequestStateCodec.builder().key(key).jsonMapper(json).build())
        .build();
    try {
      new StdioMcpTransport(server, json).start().block(); // until the client closes stdin
    } finally {
      server.closeGracefully();
      library.close();
    }
  }
}
