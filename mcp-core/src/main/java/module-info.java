/**
 * promptd's MCP core: JSON values, JSON-RPC messages, protocol records, and a server that speaks both protocol
 * eras (legacy {@code initialize} sessions and modern stateless requests) for the prompts feature.
 */
module io.promptd.mcp {
  requires static transitive org.jspecify;

  exports io.promptd.mcp.annotations;
  exports io.promptd.mcp.api;
  exports io.promptd.mcp.json;
  exports io.promptd.mcp.jsonrpc;
  exports io.promptd.mcp.protocol;
  exports io.promptd.mcp.server;
  exports io.promptd.mcp.spi;
}
