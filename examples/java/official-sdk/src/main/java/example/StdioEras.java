package example;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.javasdk.modern.SdkModernPrompts;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.server.PromptCatalog;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.SecureRandom;
import java.util.concurrent.CountDownLatch;

/**
 * Both eras over stdio: the SDK's two stacks each have a stdio transport of their own, so the
 * client's first line decides which one serves it — {@code initialize} the legacy stack, anything
 * else (a 2026-07-28 client starts with {@code server/discover} or a request naming its version)
 * the modern one. That line is handed on to the transport, which reads it as the first message.
 */
final class StdioEras {
  private static final int MAX_LINE = 4 * 1024 * 1024;

  private StdioEras() {}

  static void serve(PromptCatalog catalog) throws Exception {
    byte[] first = firstLine(System.in);
    if (first.length == 0) {
      return; // stdin closed before any message
    }
    CountDownLatch closed = new CountDownLatch(1);
    InputStream in = new FilterInputStream(
        new SequenceInputStream(new ByteArrayInputStream(first), System.in)) {
      @Override
      public int read() throws IOException {
        return atEnd(super.read());
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return atEnd(super.read(b, off, len));
      }

      private int atEnd(int n) {
        if (n < 0) {
          closed.countDown();
        }
        return n;
      }
    };
    McpJsonMapper json = McpJsonDefaults.getMapper();
    if (isInitialize(first)) {
      legacy(catalog, json, in, closed);
    } else {
      modern(catalog, json, in);
    }
  }

  private static void legacy(
      PromptCatalog catalog, McpJsonMapper json, InputStream in, CountDownLatch closed)
      throws Exception {
    SdkPrompts prompts = SdkPrompts.of(catalog);
    McpSyncServer server = io.modelcontextprotocol.server.McpServer.sync(
            new StdioServerTransportProvider(json, in, System.out))
        .serverInfo("promptd-official-sdk-example", "1.0.0")
        .capabilities(ServerCapabilities.builder().prompts(true).completions().build())
        .prompts(prompts.syncPrompts())
        .completions(prompts.syncCompletions())
        .build();
    try (AutoCloseable sync = prompts.keepInSync(server)) {
      closed.await(); // the SDK's legacy stdio transport serves until the client closes stdin
    } finally {
      server.closeGracefully();
    }
  }

  private static void modern(PromptCatalog catalog, McpJsonMapper json, InputStream in) {
    SdkModernPrompts prompts = SdkModernPrompts.of(catalog);
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    McpServer server = McpServer.builder()
        .serverInfo(
            McpSchema.Implementation.builder("promptd-official-sdk-example", "1.0.0").build())
        .jsonMapper(json)
        .feature(prompts.feature(json))
        .subscriptions(prompts.changes())
        .requestStateCodec(HmacRequestStateCodec.builder().key(key).jsonMapper(json).build())
        .build();
    try {
      new StdioMcpTransport(server, json, in, System.out).start().block(); // until stdin closes
    } finally {
      server.closeGracefully();
    }
  }

  /** The first line on {@code in}, its newline included; empty when {@code in} ends first. */
  private static byte[] firstLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      line.write(b);
      if (b == '\n' || line.size() > MAX_LINE) {
        break;
      }
    }
    return line.toByteArray();
  }

  private static boolean isInitialize(byte[] line) {
    try {
      Json message = JsonCodec.parse(new String(line, java.nio.charset.StandardCharsets.UTF_8));
      return message instanceof JsonObject o
          && o.string("method").map("initialize"::equals).orElse(false);
    } catch (JsonException e) {
      return false; // the modern transport answers a line that is not JSON
    }
  }
}
