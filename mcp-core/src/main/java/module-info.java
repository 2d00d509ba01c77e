/**
 * promptd's MCP core: JSON values, JSON-RPC messages, protocol records, and a server that speaks
 * both protocol eras (legacy {@code initialize} sessions and modern stateless requests) for the
 * prompts feature.
 */
// The wire package is exported to promptd modules built after this one.
@SuppressWarnings("module")
module io.promptd.mcp {
  requires static transitive org.jspecify;

  exports io.promptd.mcp.annotations;
  exports io.promptd.mcp.api;
  exports io.promptd.mcp.json;
  exports io.promptd.mcp.jsonrpc;
  exports io.promptd.mcp.protocol;
  exports io.promptd.mcp.server;
  exports io.promptd.mcp.spi;
  // The protocol records' JSON form, shared with promptd's own client and SDK adapter only.
  exports io.promptd.mcp.wire to
      io.promptd.mcp.client,
      io.promptd.javasdk;
}
