/** The MCP stdio transport: one JSON-RPC message per line over a byte stream pair. */
module io.promptd.mcp.stdio {
  requires transitive io.promptd.mcp;

  exports io.promptd.mcp.stdio;
}
