package io.promptd.library;

import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;

/**
 * A real {@link McpServer} over a catalog, driven by JSON-RPC text through an initialized legacy
 * session.
 */
final class McpHarness implements AutoCloseable {
  private final McpServer server;
  private final ServerSession session;
  private int nextId = 1;

  McpHarness(PromptCatalog catalog) {
    this(catalog, Outbound.discard());
  }

  /** A harness whose session-scoped notifications go to {@code notifications}. */
  McpHarness(PromptCatalog catalog, Outbound notifications) {
    server = McpServer.builder().prompts(catalog).build();
    session = server.openSession(notifications);
    call("initialize", """
        {"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}""");
    Incoming note =
        MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    session.handle((Notification) ((Incoming.Single) note).message());
  }

  /** Sends one request; returns the response as JSON text. */
  String call(String method, String params) {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method
        + "\",\"params\":" + params + "}";
    Request request = (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
    Response response = session.handle(request, Outbound.discard());
    if (response == null) {
      throw new AssertionError("no response to " + text);
    }
    return MessageCodec.encode(response);
  }

  @Override
  public void close() {
    session.close();
    server.close();
  }
}
