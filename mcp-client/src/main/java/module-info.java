/**
 * An MCP client for prompts: stdio or Streamable HTTP, either protocol era, detected as the spec
 * describes.
 */
module io.promptd.mcp.client {
  requires transitive io.promptd.mcp;
  requires java.net.http;

  exports io.promptd.mcp.client;
}
