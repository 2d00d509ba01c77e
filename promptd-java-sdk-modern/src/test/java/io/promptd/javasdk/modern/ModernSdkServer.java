package io.promptd.javasdk.modern;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A real SDK 2.2 modern server, built with the SDK's own builder and serving
 * {@link SdkModernPrompts}, on the SDK's stdio transport over in-process pipes, and the SDK's own
 * modern client talking to it.
 */
final class ModernSdkServer implements AutoCloseable {
  static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();
  private static final int PIPE = 1 << 20;

  private final McpServer server;
  private final StdioMcpTransport transport;
  private final PipedOutputStream toServer;
  private final PipedInputStream fromServer;
  private boolean connected;

  ModernSdkServer(SdkModernPrompts prompts) throws IOException {
    server = McpServer.builder()
        .serverInfo(
            McpSchema.Implementation.builder("promptd-modern-test", "1.0.0").build())
        .feature(prompts.feature(MAPPER))
        .subscriptions(prompts.changes())
        .requestStateCodec(HmacRequestStateCodec.builder()
            .key("a test key of thirty-two bytes!!".getBytes(StandardCharsets.UTF_8))
            .jsonMapper(MAPPER)
            .build())
        .jsonMapper(MAPPER)
        .build();
    toServer = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(toServer, PIPE);
    fromServer = new PipedInputStream(PIPE);
    PipedOutputStream serverOut = new PipedOutputStream(fromServer);
    transport = new StdioMcpTransport(server, MAPPER, serverIn, serverOut);
    transport.start().subscribe();
  }

  /**
   * The one client of this server (its pipes carry one conversation); {@code settings} adds
   * handlers (form elicitation) to its builder.
   */
  McpSyncClient client(UnaryOperator<McpClient.SyncBuilder> settings) {
    if (connected) {
      throw new IllegalStateException("one client per ModernSdkServer");
    }
    connected = true;
    StdioMcpClientTransport t =
        StdioMcpClientTransport.builder(fromServer, toServer).jsonMapper(MAPPER).start();
    return settings
        .apply(McpClient.sync(t)
            .clientInfo(
                McpSchema.Implementation.builder("sdk-test-client", "1.0.0").build())
            .jsonMapper(MAPPER)
            .callTimeout(Duration.ofSeconds(30)))
        .build();
  }

  @Override
  public void close() throws IOException {
    transport.closeGracefully().block(Duration.ofSeconds(10));
    server.closeGracefully();
    toServer.close();
    fromServer.close();
  }
}
